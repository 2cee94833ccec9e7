// The fleet's and the sandbox's processes die with what started them: a test run or a bench killed
// with SIGKILL (no hook runs) must not leave a redis-server, an HAProxy or a CLI holding ports and
// CPU for the next run. Linux's parent-death signal, set by util-linux's `setpriv`, which then
// execs the command (same pid). The same command line as test-support/child-lifetime.ts (which
// the packages that cannot depend on this one use); tied-child.test.ts checks that they agree.
import { existsSync } from 'node:fs';

/** Where util-linux installs setpriv (Debian: in the essential util-linux package). */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

/**
 * The command line that runs `command args` as a child killed (SIGKILL) when the thread that
 * spawns it ends; unchanged where that cannot be done (not Linux, no setpriv).
 *
 * @example
 * spawn(...tiedToSpawner(findProgram('redis-server'), ['--port', '0']), { stdio: 'pipe' });
 */
export function tiedToSpawner(
  command: string,
  args: readonly string[],
  signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL',
): [string, string[]] {
  if (process.platform !== 'linux' || SETPRIV === undefined) return [command, [...args]];
  return [SETPRIV, ['--pdeathsig', signal, '--', command, ...args]];
}
