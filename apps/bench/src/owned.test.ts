// A bench stopped with Ctrl-C (SIGINT) or SIGTERM, or ending as it does, leaves no /tmp/bench-* directory and no process: a run in miniature (test-support/bench-owner.ts) in a process of its own, signalled.
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runs, stopsRunning } from '../../../test-support/child-lifetime.js';
import { type Owner, ownerRunning } from '../../../test-support/killed-owner.js';

const OWNER = fileURLToPath(new URL('./test-support/bench-owner.ts', import.meta.url));

interface OwnedRun {
  logDir: string;
  report: string;
  pids: number[];
}

let run: Owner | undefined;
afterEach(async () => {
  await run?.killAll();
  run = undefined;
});

/** Starts the run in miniature; checks that what it owns is there. */
async function startRun(): Promise<{ owner: Owner; owned: OwnedRun; ended: Promise<string> }> {
  const owner = await ownerRunning(OWNER, '(m) => m.startOwnedRun()');
  run = owner;
  const owned = owner.result as OwnedRun;
  const ended = new Promise<string>((resolve) =>
    owner.owner.once('exit', (code, signal) => resolve(signal ?? `exit ${code}`)),
  );
  for (const directory of [owned.logDir, owned.report]) {
    expect(directory.startsWith(tmpdir())).toBe(true);
    expect(existsSync(directory)).toBe(true);
  }
  expect(owned.pids).toHaveLength(2);
  expect(owned.pids.every(runs)).toBe(true);
  return { owner, owned, ended };
}

describe('a bench run', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'stopped with %s stops its servers, removes its directories, and dies of the signal',
    async (signal) => {
      const { owner, owned, ended } = await startRun();
      owner.owner.kill(signal);
      expect(await ended).toBe(signal);
      // Stopped and reaped before the run went: nothing to wait for.
      expect(owned.pids.filter(runs)).toEqual([]);
      expect(existsSync(owned.logDir)).toBe(false);
      // The report's directory too: a stopped run's report is not whole.
      expect(existsSync(owned.report)).toBe(false);
    },
  );

  it('ending as the bench does (process.exit) kills what is left and keeps only the report', async () => {
    const { owner, owned, ended } = await startRun();
    owner.owner.kill('SIGUSR2');
    expect(await ended).toBe('exit 0');
    for (const pid of owned.pids) await stopsRunning(pid);
    expect(existsSync(owned.logDir)).toBe(false);
    expect(existsSync(owned.report)).toBe(true);
    rmSync(owned.report, { recursive: true });
  });
});
