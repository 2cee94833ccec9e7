import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { killEach, stopsRunning } from './child-lifetime.js';
import { ancestorNamed, stillRuns } from './end-with-runner.js';
import { temporaryDirectory } from './temporary-directory.js';

const started: number[] = [];
afterEach(() => killEach(started.splice(0)));

describe.skipIf(process.platform !== 'linux')('a test run under a task runner', () => {
  it('finds no runner where there is none, and tells a gone or reused pid from its runner', () => {
    expect(ancestorNamed('psk-no-such-runner')).toBeUndefined();
    const parent = ancestorNamed(readFileSync(`/proc/${process.ppid}/comm`, 'utf8').trim());
    expect(parent?.pid).toBe(process.ppid);
    expect(stillRuns(parent as { pid: number; startTime: string })).toBe(true);
    expect(stillRuns({ pid: process.ppid, startTime: '1' })).toBe(false);
    expect(stillRuns({ pid: spawnSync('true').pid as number, startTime: '1' })).toBe(false);
  });

  it('ends when the runner is killed with SIGKILL (a CI step cancelled): the watch calls back within a few looks', async () => {
    // The module, bundled for a plain node process (a stand-in for vitest's).
    const directory = temporaryDirectory('end-with-runner-');
    const bundle = join(directory, 'end-with-runner.cjs');
    buildSync({
      entryPoints: [fileURLToPath(new URL('./end-with-runner.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: bundle,
      logLevel: 'error',
    });
    const marker = join(directory, 'ended');
    // The runner (named as turbo is, by its title) starts the watcher, which prints its pid once it watches.
    const watcher = `const m = require(${JSON.stringify(bundle)});
      const runner = m.ancestorNamed('psk-fake-turbo');
      m.watchRunner(runner, () => { require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ended'); process.exit(0); }, 20);
      console.log(runner === undefined ? 'no runner' : process.pid);
      setInterval(() => {}, 60_000);`;
    const runner: ChildProcess = spawn(
      process.execPath,
      [
        '-e',
        `process.title = 'psk-fake-turbo';
         require('node:child_process').spawn(process.execPath, ['-e', process.argv[1]], { stdio: ['ignore', 'inherit', 'inherit'] });
         setInterval(() => {}, 60_000);`,
        watcher,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    started.push(runner.pid as number);
    const [chunk] = (await once(runner.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
    const pid = Number(chunk.toString('utf8').trim());
    expect(pid).toBeGreaterThan(0);
    started.push(pid);
    const exited = once(runner, 'exit');
    runner.kill('SIGKILL');
    await exited;
    await stopsRunning(pid);
    expect(readFileSync(marker, 'utf8')).toBe('ended');
  });
});
