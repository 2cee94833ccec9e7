import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stopsRunning } from '../../../../test-support/child-lifetime.js';
import { mountsUnder } from '../../../../test-support/mounts.js';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { mountSmallDisk, type SmallDisk, smallDiskCommand } from './small-disk.js';

const ROOT_ON_LINUX = process.platform === 'linux' && process.getuid?.() === 0;

let disk: SmallDisk | undefined;
const killLater: number[] = [];
afterEach(async () => {
  await disk?.close();
  disk = undefined;
  for (const pid of killLater.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
});

describe.skipIf(!ROOT_ON_LINUX)('a small disk in a mount namespace of its own', () => {
  it('is full at its size, and is not in the machine mount table', async () => {
    const mountPoint = temporaryDirectory('psm-small-disk-');
    disk = await mountSmallDisk(mountPoint, 16 * 1024);
    expect(disk).toBeDefined();
    const path = disk?.path as string;
    writeFileSync(join(path, 'filler'), Buffer.alloc(8192, 120));
    expect(() => writeFileSync(join(path, 'more'), Buffer.alloc(16 * 1024, 120))).toThrow(
      expect.objectContaining({ code: 'ENOSPC' }),
    );
    // Not in the machine's mount table: a run killed now leaves nothing mounted.
    expect(mountsUnder(mountPoint)).toEqual([]);
  });

  it('is gone with the process that mounted it, killed (SIGKILL, no afterAll): its directory is removed as any other', async () => {
    const mountPoint = temporaryDirectory('psm-small-disk-');
    // The owner stands for a test process: it starts the helper as mountSmallDisk does.
    const owner = spawn(
      process.execPath,
      [
        '-e',
        `const [command, args] = JSON.parse(process.argv[1]);
         const helper = require('node:child_process').spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
         helper.stdout.once('data', () => console.log(helper.pid));
         setInterval(() => {}, 60_000);`,
        JSON.stringify(smallDiskCommand(mountPoint, 16 * 1024)),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    killLater.push(owner.pid as number);
    const [chunk] = (await once(owner.stdout, 'data')) as [Buffer];
    const helper = Number(chunk.toString('utf8').trim());
    killLater.push(helper);
    writeFileSync(`/proc/${helper}/root${mountPoint}/left-behind`, 'x');
    const exited = once(owner, 'exit');
    owner.kill('SIGKILL');
    await exited;
    await stopsRunning(helper);
    expect(mountsUnder(mountPoint)).toEqual([]);
    // What the next run's guard does with a dead run's directory: it works (no EBUSY).
    rmSync(mountPoint, { recursive: true });
  });
});

describe.skipIf(ROOT_ON_LINUX)('where a disk cannot be mounted', () => {
  it('is undefined (the tests use /dev/full)', async () => {
    expect(await mountSmallDisk(temporaryDirectory('psm-small-disk-'), 16 * 1024)).toBeUndefined();
  });
});
