// What a bench run owns outside itself: its temporary directories (/tmp/bench-*) and the processes it starts (servers, wrk). All of it goes when the run ends, however it ends short of SIGKILL: at its normal exit, at an error, and at Ctrl-C (SIGINT) or SIGTERM, where the processes are stopped (SIGTERM, then SIGKILL after a grace) before the run dies of the same signal.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The run's directories, each with whether it stays after a normal exit (a report in it). */
const directories = new Map<string, { keepAtExit: boolean }>();
/** The run's child processes still running. */
const children = new Set<ChildProcess>();

/** How long the processes have after SIGTERM, at a signal, before they get SIGKILL. */
const STOP_GRACE_MS = 5_000;

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
let installed = false;
let stopping = false;

/**
 * A new directory `<tmpdir>/<prefix>XXXXXX`, removed when the run ends (at a signal always; at a
 * normal exit unless `keepAtExit`, for one that holds the run's report).
 *
 * @example
 * const logDir = benchDirectory('bench-logs-');
 */
export function benchDirectory(prefix: string, options: { keepAtExit?: boolean } = {}): string {
  install();
  const path = mkdtempSync(join(tmpdir(), prefix));
  directories.set(path, { keepAtExit: options.keepAtExit ?? false });
  return path;
}

/**
 * Removes a directory of `benchDirectory` now (the measurement that used it is done).
 *
 * @example
 * removeBenchDirectory(logDir);
 */
export function removeBenchDirectory(path: string): void {
  rmSync(path, { recursive: true, force: true });
  directories.delete(path);
}

/**
 * Makes `child` the run's until it exits: stopped when the run ends before it does. Returns it.
 *
 * @example
 * const child = ownChild(spawn(process.execPath, ['server.js']));
 */
export function ownChild<Child extends ChildProcess>(child: Child): Child {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return child;
  install();
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Resolves once `child` has exited (and was reaped). */
function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** SIGTERM to every child (and those started meanwhile), SIGKILL after the grace; resolves when all have exited. */
async function stopChildren(): Promise<void> {
  while (children.size > 0) {
    const batch = [...children];
    const kill = setTimeout(() => {
      for (const child of batch) child.kill('SIGKILL');
    }, STOP_GRACE_MS);
    for (const child of batch) child.kill('SIGTERM');
    await Promise.all(batch.map(exitOf));
    clearTimeout(kill);
  }
}

/** Removes the run's directories (those kept at a normal exit too, when `all`). Never throws. */
function removeDirectories(all: boolean): void {
  for (const [path, { keepAtExit }] of directories) {
    if (keepAtExit && !all) continue;
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed as far as it could be: nothing else to do on the way out.
    }
    directories.delete(path);
  }
}

/** At a normal exit or an error (synchronous: no waiting there): what is left is killed and removed. */
function atExit(): void {
  for (const child of children) child.kill('SIGKILL');
  removeDirectories(false);
}

/** At SIGINT or SIGTERM: stop the processes, remove the directories, then die of the same signal. A second signal hurries it. */
async function atSignal(signal: NodeJS.Signals): Promise<void> {
  if (stopping) {
    atExit();
    removeDirectories(true);
    process.exit(exitCodeOf(signal));
  }
  stopping = true;
  process.stderr.write(
    `bench: ${signal}: stopping ${children.size} process(es), removing ${directories.size} directory(ies)\n`,
  );
  await stopChildren();
  removeDirectories(true);
  for (const name of SIGNALS) process.removeListener(name, atSignal);
  process.kill(process.pid, signal);
  // Still here: another listener took the signal. End as a shell reports a signal's end.
  setImmediate(() => process.exit(exitCodeOf(signal)));
}

/** The exit code a shell reports for a process ended by `signal` (130 for SIGINT, 143 for SIGTERM). */
function exitCodeOf(signal: NodeJS.Signals): number {
  return 128 + (signal === 'SIGINT' ? 2 : 15);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', atExit);
  for (const name of SIGNALS) process.on(name, atSignal);
}
