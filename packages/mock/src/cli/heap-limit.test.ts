import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MEMORY_BUDGET_BYTES } from '../store/limits.js';
import { heapLimitFlags, heapLimitMiB, RELAUNCHED_ENV } from './heap-limit.js';

/** V8's default limit on this kind of machine (a few GiB), and what it reports under our flag. */
const MACHINE_DEFAULT = 4144;
const UNDER_DEFAULT_FLAG = 432;

describe('heapLimitFlags', () => {
  it('sizes the heap from the default budget', () => {
    expect(heapLimitFlags([], [], {}, MACHINE_DEFAULT)).toEqual(['--max-old-space-size=384']);
  });

  it('follows --memory-budget, never below 192 MiB', () => {
    expect(heapLimitFlags(['--memory-budget', '1024'], [], {}, MACHINE_DEFAULT)).toEqual([
      '--max-old-space-size=1152',
    ]);
    expect(heapLimitFlags(['--memory-budget=32'], [], {}, MACHINE_DEFAULT)).toEqual([
      '--max-old-space-size=192',
    ]);
    expect(heapLimitMiB(0)).toBe(192);
  });

  it("respects the user's own limit, on the command line or in NODE_OPTIONS", () => {
    expect(heapLimitFlags([], ['--max-old-space-size=2048'], {}, 2096)).toBeUndefined();
    expect(
      heapLimitFlags([], [], { NODE_OPTIONS: '--max-old-space-size=2048' }, 2096),
    ).toBeUndefined();
  });

  it("runs as it is under the bin's shebang limit, and raises a limit too small for the budget", () => {
    const shebang = ['--max-old-space-size=384'];
    expect(heapLimitFlags([], shebang, {}, UNDER_DEFAULT_FLAG)).toBeUndefined();
    expect(heapLimitFlags(['--memory-budget', '1024'], shebang, {}, UNDER_DEFAULT_FLAG)).toEqual([
      '--max-old-space-size=1152',
    ]);
  });

  it("the bin's shebang carries the limit of the default budget", () => {
    const firstLine = readFileSync(
      new URL('../../bin/payment-service-mock.js', import.meta.url),
      'utf8',
    ).split('\n')[0];
    expect(firstLine).toBe(
      `#!/usr/bin/env -S node --max-old-space-size=${heapLimitMiB(DEFAULT_MEMORY_BUDGET_BYTES)}`,
    );
  });

  it('never relaunches twice, nor for --help, --version or a wrong flag', () => {
    expect(heapLimitFlags([], [], { [RELAUNCHED_ENV]: '1' }, MACHINE_DEFAULT)).toBeUndefined();
    expect(heapLimitFlags(['--help'], [], {}, MACHINE_DEFAULT)).toBeUndefined();
    expect(heapLimitFlags(['--version'], [], {}, MACHINE_DEFAULT)).toBeUndefined();
    expect(heapLimitFlags(['--port', 'abc'], [], {}, MACHINE_DEFAULT)).toBeUndefined();
  });
});
