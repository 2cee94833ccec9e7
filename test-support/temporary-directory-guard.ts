// A vitest globalSetup every package's suite runs first: the run's temporary directory (TMPDIR, so
// os.tmpdir() in the tests and in every process they start) is a fresh directory of its own, and
// the run fails when it leaves anything in it. Each package's run has its own, so suites that turbo
// runs at the same time cannot see each other's files. The directory is removed in any case, and a
// run's directory left by a killed run (its process gone) is removed by the next run, with what it
// left mounted there (a run of another PID namespace, another container on a shared /tmp, once it has
// been quiet for a day); what cannot be removed is named in a warning and never fails the next run.
// KEEP_TEST_TMPDIR=1 keeps the directory (and every test's) for a look, and checks nothing.
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { stopProcessesIn } from './leftover-processes.js';
import { mountsUnder, unmount } from './mounts.js';

/** Set to 1 to keep the run's temporary directory and every test's in it, for a look after the run. */
export const KEEP_VARIABLE = 'KEEP_TEST_TMPDIR';

const RUN_PREFIX = 'psk-test-run-';
/** A run's directory: `psk-test-run-<package>-<pid namespace>-<pid>-XXXXXX`. */
const RUN_NAME = /^psk-test-run-[a-z0-9-]+?-(\d+)-(\d+)-[A-Za-z0-9]{6}$/;
/** How old (by its last change) a run directory of another PID namespace is when it counts as abandoned. */
export const FOREIGN_RUN_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * This process's PID namespace (the inode number in /proc/self/ns/pid), or '0' where there is none.
 * Two CI jobs in two containers can share one /tmp: a process id means something only in its own
 * namespace, so a run judges by process id only the runs of its own.
 *
 * @example
 * pidNamespace(); // '4026531836' on Linux, '0' elsewhere
 */
export function pidNamespace(): string {
  try {
    return /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? '0';
  } catch {
    return '0';
  }
}

/** Whether a process with this id runs (on this machine, as any user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Unmounts what a run left mounted in its directory, then removes the directory; says why it could not, or undefined. */
function removeRun(run: string): string | undefined {
  const stayed = unmount(mountsUnder(run));
  // Never into a file system still mounted there: what it holds may not be the run's (a bind mount).
  if (stayed.length > 0) return `still mounted: ${stayed.join(', ')}`;
  try {
    rmSync(run, { recursive: true, force: true });
    return undefined;
  } catch (error) {
    const { code, path } = error as NodeJS.ErrnoException;
    return `${code ?? String(error)} at ${path ?? run}`;
  }
}

/**
 * Whether the run that made this directory is gone: in this PID namespace, its process is gone; in
 * another (or under an older name), the directory has not changed for {@link FOREIGN_RUN_AGE_MS}.
 */
function abandoned(path: string, namespace: string, now: number): boolean {
  const owner = RUN_NAME.exec(basename(path));
  if (owner?.[1] === namespace) return !running(Number(owner[2]));
  try {
    return now - lstatSync(path).mtimeMs > FOREIGN_RUN_AGE_MS;
  } catch {
    return false;
  }
}

/**
 * Removes the run directories of runs whose process is gone (killed before their teardown), with
 * what they left mounted and the processes they left running there; a run of another PID namespace
 * only once it has been quiet for a day. Never throws: a directory that cannot go is named in a warning and kept,
 * since this run did not make it.
 *
 * @example
 * removeDeadRuns('/tmp'); // removes /tmp/psk-test-run-mock-4026531836-4242-a1B2c3 if process 4242 of this namespace is gone
 */
export function removeDeadRuns(
  outer: string,
  warn: (line: string) => void = console.warn,
  now: number = Date.now(),
): void {
  let names: string[];
  try {
    names = readdirSync(outer);
  } catch (error) {
    warn(
      `temporary files: cannot list ${outer} for killed runs' directories (${(error as NodeJS.ErrnoException).code})`,
    );
    return;
  }
  const namespace = pidNamespace();
  for (const name of names) {
    if (!name.startsWith(RUN_PREFIX) || !abandoned(join(outer, name), namespace, now)) continue;
    // What no parent-death signal reaches (a proxy a shell step started in the background) still
    // runs there, holding its port and files: stopped first, and named.
    const stopped = stopProcessesIn(join(outer, name));
    if (stopped.length > 0) {
      warn(
        `temporary files: stopped what a killed run left running in ${join(outer, name)}: ${stopped.join('; ')}`,
      );
    }
    const problem = removeRun(join(outer, name));
    if (problem !== undefined) {
      warn(
        `temporary files: the directory a killed run left, ${join(outer, name)}, stays (${problem}); remove it by hand`,
      );
    }
  }
}

/**
 * Removes a run's directory with all it holds (unmounting what the tests left mounted there); says
 * what the run left there, if anything. Never throws.
 *
 * @example
 * closeRun('/tmp/psk-test-run-mock-4026531836-4242-a1B2c3'); // undefined, or 'the tests left 1 entry … (psm-data-x1Y2z3) …'
 */
export function closeRun(run: string): string | undefined {
  let left: string[] = [];
  try {
    left = readdirSync(run);
  } catch (error) {
    return `the run's temporary directory ${run} cannot be read (${(error as NodeJS.ErrnoException).code}): a test removed or replaced it`;
  }
  const mounted = mountsUnder(run).map((point) => relative(run, point));
  const problem = removeRun(run);
  const failures: string[] = [];
  if (left.length > 0) {
    const shown = `${left.slice(0, 20).join(', ')}${left.length > 20 ? ', …' : ''}`;
    failures.push(
      `the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temporary directory (${shown}): make temporary directories with temporaryDirectory() from test-support/temporary-directory.ts, and stop the processes that write into them`,
    );
  }
  if (mounted.length > 0) {
    failures.push(
      `they left ${mounted.length} file system${mounted.length === 1 ? '' : 's'} mounted there (${mounted.join(', ')}): unmount in an afterAll hook`,
    );
  }
  if (problem !== undefined) failures.push(`the directory ${run} stays (${problem})`);
  return failures.length > 0 ? failures.join('; ') : undefined;
}

/**
 * Points TMPDIR at a fresh directory for this run; the teardown it returns removes the directory
 * and, when the run left anything in it, fails the run (exit code 1), naming what was left.
 *
 * @example
 * // vitest.config.ts
 * test: { globalSetup: ['../../test-support/temporary-directory-guard.ts'] }
 */
export default function setup(): () => void {
  const before = process.env.TMPDIR;
  const outer = tmpdir();
  removeDeadRuns(outer);
  const name = basename(process.cwd())
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  const run = mkdtempSync(join(outer, `${RUN_PREFIX}${name}-${pidNamespace()}-${process.pid}-`));
  // Others may pass through (not list) as through the system's: a test runs the CLI as another
  // user on a directory it opened to them (reliability's restart.test.ts, as root).
  chmodSync(run, 0o711);
  process.env.TMPDIR = run;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    if (process.env[KEEP_VARIABLE] === '1') {
      console.log(`${KEEP_VARIABLE}=1: the run's temporary files are kept in ${run}`);
      return;
    }
    const failure = closeRun(run);
    if (failure !== undefined) {
      // An exception in a teardown is only logged: the exit code is what fails the run.
      process.exitCode = 1;
      console.error(`FAIL temporary files: ${failure}`);
    }
  };
}
