// Child processes of tests that cannot outlive the test: a run killed by CI (SIGKILL, no afterAll)
// must not leave a redis-server, a sandbox CLI or a proxy holding ports and CPU for the next run.
// Linux's parent-death signal (prctl PR_SET_PDEATHSIG), set by util-linux's `setpriv`, which then
// execs the command in the same process: the child gets SIGKILL when the thread that spawned it
// ends (a vitest worker thread, or the whole vitest process), however it ends.
import { existsSync, readFileSync } from 'node:fs';

/** Where util-linux installs setpriv (Debian: /usr/bin/setpriv, in the essential util-linux package). */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

/** Whether children can be tied to their spawner here (Linux with setpriv). */
export const CAN_TIE_CHILDREN = process.platform === 'linux' && SETPRIV !== undefined;

/**
 * The command line that runs `command args` as a child killed (SIGKILL) when the thread that
 * spawns it ends; the same pid, stdio and environment. Unchanged where that cannot be done.
 * Only the child itself is tied: a child that starts its own children ties them itself, or is
 * given SIGTERM (`signal`) when it stops them at that signal (the bench run does).
 *
 * @example
 * const [command, args] = tiedToSpawner('redis-server', ['--port', '0']);
 * spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
 */
export function tiedToSpawner(
  command: string,
  args: readonly string[],
  signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL',
): [string, string[]] {
  if (!CAN_TIE_CHILDREN || SETPRIV === undefined) return [command, [...args]];
  return [SETPRIV, ['--pdeathsig', signal, '--', command, ...args]];
}

/**
 * Whether process `pid` runs (Linux /proc): a zombie, killed and waiting to be reaped, does not.
 *
 * @example
 * runs(child.pid); // false once it was killed
 */
export function runs(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Resolves once process `pid` no longer runs; rejects when it still does after `checks` looks
 * 20 ms apart (a bound, not a timing: the process is expected to be gone at once).
 *
 * @example
 * owner.kill('SIGKILL'); await stopsRunning(tiedChildPid);
 */
export async function stopsRunning(pid: number, checks = 250): Promise<void> {
  for (let check = 0; check < checks; check++) {
    if (!runs(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`process ${pid} still runs`);
}

/**
 * Sends SIGKILL to each process still there (a test's afterEach: whatever the test left); never throws.
 *
 * @example
 * afterEach(() => killEach(started.splice(0)));
 */
export function killEach(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already, as the test wanted.
    }
  }
}
