import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killEach, runs, stopsRunning } from './child-lifetime.js';
import { processesIn, stopProcessesIn } from './leftover-processes.js';
import { temporaryDirectory } from './temporary-directory.js';

const IDLE = `"${process.execPath}" -e "setInterval(() => {}, 60000)"`;

const started: number[] = [];
afterEach(() => killEach(started.splice(0)));

/**
 * What a CI step does with a proxy: a shell starts it in the background and ends. The process
 * outlives the shell (its parent is gone: no test hook, no parent-death signal reaches it).
 */
async function backgroundProcess(cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const step = spawn('sh', ['-c', `${IDLE} > /dev/null 2>&1 < /dev/null &\necho $!`], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(step.stdout, 'data')) as [Buffer];
  const pid = Number(chunk.toString('utf8').trim());
  started.push(pid);
  await once(step, 'exit');
  expect(runs(pid)).toBe(true);
  return pid;
}

const PATH_ONLY = { PATH: process.env.PATH ?? '' };

describe.skipIf(process.platform !== 'linux')('processes a killed run left', () => {
  it('are found by their working directory in the run, and stopped', async () => {
    const run = temporaryDirectory('leftover-run-');
    const pid = await backgroundProcess(run, PATH_ONLY);
    expect(processesIn(run).map((found) => found.pid)).toEqual([pid]);
    const stopped = stopProcessesIn(run);
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).toMatch(new RegExp(`^${pid} .*setInterval`));
    await stopsRunning(pid);
    expect(processesIn(run)).toEqual([]);
  });

  it('are found by a TMPDIR or a HOME in the run, wherever they work', async () => {
    const run = temporaryDirectory('leftover-run-');
    const byTmpdir = await backgroundProcess('/', { ...PATH_ONLY, TMPDIR: run });
    const byHome = await backgroundProcess('/', { ...PATH_ONLY, HOME: join(run, 'home') });
    expect(
      processesIn(run)
        .map((found) => found.pid)
        .sort(),
    ).toEqual([byTmpdir, byHome].sort());
    stopProcessesIn(run);
    await stopsRunning(byTmpdir);
    await stopsRunning(byHome);
  });

  it('are found in a directory already removed (Linux marks the working directory deleted)', async () => {
    const run = temporaryDirectory('leftover-run-');
    const work = join(run, 'project');
    mkdirSync(work);
    const pid = await backgroundProcess(work, PATH_ONLY);
    rmSync(work, { recursive: true });
    expect(processesIn(run).map((found) => found.pid)).toEqual([pid]);
  });

  it("leave alone a process that began before the directory was made: a shell the user opened, then cd'd into a run kept for a look", async () => {
    const run = temporaryDirectory('leftover-run-');
    const pid = await backgroundProcess(run, { ...PATH_ONLY, TMPDIR: run });
    // As if the directory had been made a minute after the process began.
    const later = Date.now() + 60_000;
    expect(processesIn(run, later)).toEqual([]);
    expect(stopProcessesIn(run, later)).toEqual([]);
    expect(runs(pid)).toBe(true);
    // Made before it, as the run's processes are: found.
    expect(processesIn(run, Date.now() - 60_000).map((found) => found.pid)).toEqual([pid]);
  });

  it('leave alone what only looks alike: another directory, a name that starts the same', async () => {
    const run = temporaryDirectory('leftover-run-');
    const other = await backgroundProcess(temporaryDirectory('leftover-other-'), PATH_ONLY);
    mkdirSync(`${run}-longer`);
    const longer = await backgroundProcess(`${run}-longer`, PATH_ONLY);
    try {
      expect(processesIn(run)).toEqual([]);
      expect(stopProcessesIn(run)).toEqual([]);
      expect(runs(other) && runs(longer)).toBe(true);
    } finally {
      process.kill(longer, 'SIGKILL');
      await stopsRunning(longer);
      rmSync(`${run}-longer`, { recursive: true });
    }
  });
});
