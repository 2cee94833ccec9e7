// Processes a killed test run left behind, found by where they live: a process whose working
// directory, TMPDIR or HOME is in the run's temporary directory belongs to that run. What a test
// ties to itself (./child-lifetime.ts) dies with it; this finds the rest, which nothing can tie: a
// proxy started in the background by a shell step (`cmd &`, nohup) that outlives its shell, a
// README recipe's detached process group, what npx starts under npm and sh. The run guard
// (./temporary-directory-guard.ts) stops them before it removes a dead run's directory. A process
// that began before the directory was made is not the run's: a shell the user opened, then cd'd
// into a run kept with KEEP_TEST_TMPDIR=1 for a look, was SIGKILLed by the next test run.
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
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

/**
 * How much earlier than its directory a process of a run may seem to begin: /proc/stat's boot time
 * is in whole seconds, a process's start in clock ticks.
 */
export const START_SLACK_MS = 2000;

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's start time: 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** When the machine booted (ms since the epoch, from /proc/stat), or undefined. */
function bootTime(): number | undefined {
  try {
    const seconds = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    return seconds === undefined ? undefined : Number(seconds) * 1000;
  } catch {
    return undefined;
  }
}

/** When a process began (ms since the epoch), or undefined when unreadable. */
function startTime(pid: string, booted: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the name: state (field 3), …, starttime (22).
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isFinite(ticks) ? booted + (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

/** When `directory` was made (its birth time, ms since the epoch), or undefined where the file system keeps none. */
function madeAt(directory: string): number | undefined {
  try {
    const born = statSync(directory).birthtimeMs;
    return born > 0 ? born : undefined;
  } catch {
    return undefined;
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
 * under it, and that began after `made` (the directory's birth, less {@link START_SLACK_MS}; every
 * process where the file system keeps no birth time). Linux /proc; empty elsewhere.
 *
 * @example
 * processesIn('/tmp/psk-test-run-contract-4026531836-4242-a1B2c3'); // [{ pid: 4301, command: 'node …/payment-service-contract.js proxy …' }]
 */
export function processesIn(
  directory: string,
  made: number | undefined = madeAt(directory),
): LeftoverProcess[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const booted = made === undefined ? undefined : bootTime();
  const found: LeftoverProcess[] = [];
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    const cwd = workingDirectory(pid);
    const placed =
      (cwd !== undefined && inside(cwd, directory)) ||
      placingValues(pid).some((value) => inside(value, directory));
    if (!placed) continue;
    const began = booted === undefined ? undefined : startTime(pid, booted);
    if (made !== undefined && began !== undefined && began < made - START_SLACK_MS) continue;
    found.push({ pid: Number(pid), command: commandLine(pid) });
  }
  return found;
}

/**
 * Kills (SIGKILL) every process {@link processesIn} finds in `directory`, a dead run's (made at
 * `made`), and says which; never throws.
 *
 * @example
 * stopProcessesIn(deadRun); // ['4301 node …/payment-service-contract.js proxy …']
 */
export function stopProcessesIn(
  directory: string,
  made: number | undefined = madeAt(directory),
): string[] {
  const stopped: string[] = [];
  for (const { pid, command } of processesIn(directory, made)) {
    try {
      process.kill(pid, 'SIGKILL');
      stopped.push(`${pid} ${command}`);
    } catch {
      // Gone meanwhile, or not ours to stop (EPERM): nothing more to do.
    }
  }
  return stopped;
}
