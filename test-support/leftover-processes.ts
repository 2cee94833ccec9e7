// Processes a killed test run left behind, found by where they live: a process whose working
// directory, TMPDIR or HOME is in the run's temporary directory belongs to that run. What a test
// ties to itself (./child-lifetime.ts) dies with it; this finds the rest, which nothing can tie: a
// proxy started in the background by a shell step (`cmd &`, nohup) that outlives its shell, a
// README recipe's detached process group, what npx starts under npm and sh. The run guard
// (./temporary-directory-guard.ts) stops them before it removes a dead run's directory.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { sep } from 'node:path';

/** A process found in a directory: its pid and its command line, for a warning. */
export interface LeftoverProcess {
  pid: number;
  command: string;
}

/** The environment variables that place a process in a run (tests set them to temporary directories). */
const PLACING_VARIABLES = ['TMPDIR', 'HOME'];

/** Whether `path` is `directory` or under it. */
function inside(path: string, directory: string): boolean {
  return path === directory || path.startsWith(directory + sep);
}

/** A process's working directory, without the ` (deleted)` Linux adds once it is removed; undefined when unreadable. */
function workingDirectory(pid: string): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`).replace(/ \(deleted\)$/, '');
  } catch {
    return undefined;
  }
}

/** The values of the placing variables in a process's environment (empty when unreadable). */
function placingValues(pid: string): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((entry) => PLACING_VARIABLES.some((name) => entry.startsWith(`${name}=`)))
      .map((entry) => entry.slice(entry.indexOf('=') + 1));
  } catch {
    return [];
  }
}

/** A process's command line, spaces between its arguments (cut to 200 characters). */
function commandLine(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 200);
  } catch {
    return '?';
  }
}

/**
 * The processes (other than this one) whose working directory, TMPDIR or HOME is `directory` or
 * under it (Linux /proc; empty elsewhere).
 *
 * @example
 * processesIn('/tmp/psk-test-run-contract-4026531836-4242-a1B2c3'); // [{ pid: 4301, command: 'node …/payment-service-contract.js proxy …' }]
 */
export function processesIn(directory: string): LeftoverProcess[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: LeftoverProcess[] = [];
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    const cwd = workingDirectory(pid);
    const placed =
      (cwd !== undefined && inside(cwd, directory)) ||
      placingValues(pid).some((value) => inside(value, directory));
    if (placed) found.push({ pid: Number(pid), command: commandLine(pid) });
  }
  return found;
}

/**
 * Kills (SIGKILL) every process {@link processesIn} finds in `directory`, a dead run's, and says
 * which; never throws.
 *
 * @example
 * stopProcessesIn(deadRun); // ['4301 node …/payment-service-contract.js proxy …']
 */
export function stopProcessesIn(directory: string): string[] {
  const stopped: string[] = [];
  for (const { pid, command } of processesIn(directory)) {
    try {
      process.kill(pid, 'SIGKILL');
      stopped.push(`${pid} ${command}`);
    } catch {
      // Gone meanwhile, or not ours to stop (EPERM): nothing more to do.
    }
  }
  return stopped;
}
