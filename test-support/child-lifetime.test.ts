import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { CAN_TIE_CHILDREN, killEach, runs, stopsRunning, tiedToSpawner } from './child-lifetime.js';
import { temporaryDirectory } from './temporary-directory.js';

/** A node process that does nothing until it is killed. */
const IDLE: [string, string[]] = [process.execPath, ['-e', 'setInterval(() => {}, 60_000)']];

/**
 * Resolves once process `pid` runs `commandLine` itself: setpriv has set its parent-death signal
 * and exec'd it. Until then a spawner that ends leaves the child untied (setpriv sets the signal
 * after the fork): killing the spawner sooner tests that race, not the tie.
 */
async function execd(pid: number, [command, args]: [string, string[]]): Promise<void> {
  const wanted = [command, ...args].join('\0');
  for (let look = 0; look < 250; look++) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0$/, '') === wanted) return;
    } catch {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`process ${pid} never ran ${command}`);
}

const started: number[] = [];
afterEach(() => killEach(started.splice(0)));

/**
 * Starts an owner process that spawns `commandLine` (its stdout shared) and prints the child's pid;
 * resolves with both once the output holds `ready` too, when given.
 */
async function ownerOf(
  commandLine: [string, string[]],
  ready?: string,
): Promise<{ owner: ChildProcess; child: number }> {
  const owner = spawn(
    process.execPath,
    [
      '-e',
      `const [command, args] = JSON.parse(process.argv[1]);
       const child = require('node:child_process').spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
       console.log(child.pid);
       setInterval(() => {}, 60_000);`,
      JSON.stringify(commandLine),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  started.push(owner.pid as number);
  let output = '';
  await new Promise<void>((resolve) => {
    owner.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (/^\d+\n/.test(output) && (ready === undefined || output.includes(ready))) resolve();
    });
  });
  const child = Number(/^(\d+)\n/.exec(output)?.[1]);
  started.push(child);
  expect(runs(child)).toBe(true);
  return { owner, child };
}

describe.skipIf(!CAN_TIE_CHILDREN)('a child tied to its spawner', () => {
  it('is killed when its spawner is (SIGKILL: a CI step killed, no hook runs)', async () => {
    const { owner, child } = await ownerOf(tiedToSpawner(...IDLE));
    await execd(child, IDLE);
    const exited = once(owner, 'exit');
    owner.kill('SIGKILL');
    await exited;
    await stopsRunning(child);
  });

  it('gets SIGTERM instead when asked, and stops as it does at SIGTERM (the bench run stops its servers)', async () => {
    const marker = join(temporaryDirectory('child-lifetime-'), 'stopped');
    const child = tiedToSpawner(
      process.execPath,
      [
        '-e',
        `process.on('SIGTERM', () => { require('node:fs').writeFileSync(process.argv[1], 'at SIGTERM'); process.exit(0); });
         console.log('ready');
         setInterval(() => {}, 60_000);`,
        marker,
      ],
      'SIGTERM',
    );
    const { owner, child: pid } = await ownerOf(child, 'ready');
    const exited = once(owner, 'exit');
    owner.kill('SIGKILL');
    await exited;
    await stopsRunning(pid);
    expect(readFileSync(marker, 'utf8')).toBe('at SIGTERM');
  });

  it('outlives its spawner when it is not tied (what the tie is for)', async () => {
    const { owner, child } = await ownerOf(IDLE);
    const exited = once(owner, 'exit');
    owner.kill('SIGKILL');
    await exited;
    // The orphan is still there after its parent's exit was seen: only a kill ends it.
    expect(runs(child)).toBe(true);
  });

  it('is killed when the worker thread that spawned it ends (a vitest worker done with its file)', async () => {
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const [command, args] = workerData;
       parentPort.postMessage(require('node:child_process').spawn(command, args, { stdio: 'ignore' }).pid);
       setInterval(() => {}, 60_000);`,
      { eval: true, workerData: tiedToSpawner(...IDLE) },
    );
    const [child] = (await once(worker, 'message')) as [number];
    started.push(child);
    await execd(child, IDLE);
    await worker.terminate();
    await stopsRunning(child);
  });

  it('keeps the command, its arguments and its pid (setpriv execs it)', async () => {
    const [command, args] = tiedToSpawner(process.execPath, ['-e', 'console.log(process.pid)']);
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    expect(Number(chunk.toString('utf8').trim())).toBe(child.pid);
    expect(args.slice(-4, -1)).toEqual(['--', process.execPath, '-e']);
  });
});

describe.skipIf(CAN_TIE_CHILDREN)('where children cannot be tied', () => {
  it('runs the command unchanged', () => {
    expect(tiedToSpawner('redis-server', ['--port', '0'])).toEqual([
      'redis-server',
      ['--port', '0'],
    ]);
  });
});
