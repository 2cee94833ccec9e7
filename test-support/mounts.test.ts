// Reading the mount table for what a run left mounted in its temporary directory.
import { describe, expect, it } from 'vitest';
import { mountsUnder, unmount } from './mounts.js';

const TABLE = [
  'overlay / overlay rw,relatime 0 0',
  'tmpfs /tmp/psk-test-run-reliability-7490-pxFPwS/psm-small-disk-eWJruh tmpfs rw,size=16k,mode=700 0 0',
  'tmpfs /tmp/psk-test-run-reliability-7490-pxFPwS/a\\040b tmpfs rw 0 0',
  'tmpfs /tmp/psk-test-run-reliability-7490-pxFPwS/psm-small-disk-eWJruh/inner tmpfs rw 0 0',
  'tmpfs /tmp/psk-test-run-reliability-7490-pxFPwSx/other tmpfs rw 0 0',
  '',
].join('\n');

describe('mountsUnder', () => {
  it('lists the mount points under a directory, deepest first, with escaped names read back', () => {
    expect(mountsUnder('/tmp/psk-test-run-reliability-7490-pxFPwS', TABLE)).toEqual([
      '/tmp/psk-test-run-reliability-7490-pxFPwS/psm-small-disk-eWJruh/inner',
      '/tmp/psk-test-run-reliability-7490-pxFPwS/psm-small-disk-eWJruh',
      '/tmp/psk-test-run-reliability-7490-pxFPwS/a b',
    ]);
  });

  it('does not take a sibling whose name only starts the same, and reads an empty table as none', () => {
    expect(mountsUnder('/tmp/psk-test-run-reliability-7490-pxFPwSx', TABLE)).toEqual([
      '/tmp/psk-test-run-reliability-7490-pxFPwSx/other',
    ]);
    expect(mountsUnder('/tmp/nothing-here', TABLE)).toEqual([]);
    expect(mountsUnder('/tmp', '')).toEqual([]);
  });
});

describe('unmount', () => {
  it('names a point that stays mounted, with what umount said, and does not throw', () => {
    const [stayed] = unmount(['/nonexistent-mount-point-of-a-test']);
    expect(stayed).toMatch(/^\/nonexistent-mount-point-of-a-test \(.+\)$/);
  });
});
