// One process per data directory: LOCK names its owner (pid and start time); a dead owner's lock is taken over by one process only.
import {
  closeSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The lock file's name inside a data directory. */
export const LOCK_FILE = 'LOCK';

/** Why a data directory could not be used; the message names the file and what to do. */
export class DataDirectoryError extends Error {
  override readonly name = 'DataDirectoryError';
}

/** Who holds a lock: a pid, and when that process started (Linux), which tells a reused pid apart. */
export interface LockOwner {
  pid: number;
  /** The process's start time in clock ticks after boot (/proc/PID/stat), when known. */
  start: string | undefined;
}

/**
 * When the process `pid` started (clock ticks after boot, field 22 of /proc/PID/stat), or
 * undefined where there is no /proc or the process is gone.
 */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command (field 2) is in parentheses and may hold spaces: count after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    return start !== undefined && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The name of the program `pid` runs (/proc/PID/comm: `sleep`, `node`), where /proc shows it;
 * never its arguments, which may hold secrets.
 */
function processName(pid: number): string | undefined {
  try {
    const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    return name === '' ? undefined : name;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid runs on this machine (EPERM: it belongs to another user). */
function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What a lock's owner is now. */
type OwnerState =
  /** Running, and the same process that wrote the lock (or no start time to tell). */
  | 'alive'
  /** Its pid runs, but the lock records no start time: maybe the owner, maybe a reused pid. */
  | 'unverified'
  /** Gone: no such pid, or the pid now belongs to a process that started later. */
  | 'dead';

function ownerState(owner: LockOwner): OwnerState {
  if (!pidRuns(owner.pid)) return 'dead';
  const start = processStart(owner.pid);
  if (owner.start === undefined) return start === undefined ? 'alive' : 'unverified';
  // A start time recorded and one readable now that differ: the pid was reused.
  return start === undefined || start === owner.start ? 'alive' : 'dead';
}

/** The text of a lock file: the pid on the first line (what older versions read), then the start time. */
function lockText(owner: LockOwner): string {
  return owner.start === undefined ? `${owner.pid}\n` : `${owner.pid}\nstart ${owner.start}\n`;
}

/**
 * The text of the lock file process `pid` would write (its pid, then its start time where known).
 *
 * @example
 * lockTextOf(process.pid); // '4242\nstart 991823\n'
 */
export function lockTextOf(pid: number): string {
  return lockText({ pid, start: processStart(pid) });
}

/** The owner a lock file's text names, or undefined when it names none (empty, not ours). */
function parseLock(text: string): LockOwner | undefined {
  const [first, second] = text.split('\n');
  if (first === undefined || !/^[1-9]\d{0,9}$/.test(first.trim())) return undefined;
  const start = /^start (\d+)$/.exec(second?.trim() ?? '')?.[1];
  return { pid: Number(first.trim()), start };
}

/** What the lock file holds now: its owner, `unreadable` (no pid in it), or undefined when absent. */
function readLock(path: string, directory: string): LockOwner | 'unreadable' | undefined {
  let kind: string;
  try {
    const stat = lstatSync(path);
    if (stat.isFile()) kind = 'file';
    else if (stat.isSymbolicLink()) kind = 'symlink';
    else if (stat.isDirectory()) kind = 'directory';
    else kind = 'special';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fileError('examine', path, error);
  }
  if (kind === 'symlink') {
    let target = '?';
    try {
      target = readlinkSync(path);
    } catch {
      // Shown as '?'.
    }
    let dangling = false;
    try {
      readFileSync(path);
    } catch (error) {
      dangling = (error as NodeJS.ErrnoException).code === 'ENOENT';
    }
    throw new DataDirectoryError(
      `the lock file ${path} is a symbolic link (to ${target}${dangling ? ', which does not exist' : ''}), not a file the sandbox wrote. If no sandbox uses ${directory}, delete the link and start again.`,
    );
  }
  if (kind !== 'file') {
    throw new DataDirectoryError(
      `the lock file ${path} is a ${kind}, not a file the sandbox wrote. If no sandbox uses ${directory}, remove it and start again.`,
    );
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fileError('read', path, error);
  }
  return parseLock(text) ?? 'unreadable';
}

/**
 * A file system error on a data directory's file, said as it is: the file, what was done, and
 * for a permission denied or a directory where a file belongs, what to do.
 *
 * @example
 * throw fileError('open', '/data/journal.1.log', error); // 'cannot open the file …: permission denied …'
 */
export function fileError(verb: string, path: string, error: unknown): DataDirectoryError {
  if (error instanceof DataDirectoryError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const what = path.endsWith(LOCK_FILE) ? 'the lock file' : 'the file';
  if (code === 'EACCES' || code === 'EPERM') {
    return new DataDirectoryError(
      `cannot ${verb} ${what} ${path}: permission denied. The data directory's files belong to another user, or are read-only: run the sandbox as their owner (or change their owner or mode), or choose another --data-dir.`,
    );
  }
  if (code === 'EISDIR') {
    return new DataDirectoryError(
      `cannot ${verb} ${what} ${path}: it is a directory, where the sandbox keeps a file. Move it out of the data directory, or choose another --data-dir.`,
    );
  }
  return new DataDirectoryError(`cannot ${verb} ${what} ${path}: ${(error as Error).message}.`);
}

/** Waits `ms` synchronously (a lock is taken once, at start-up, before anything is served). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The directories whose lock this process holds now: a LOCK naming this very process is a live
 * sandbox of it (two servers of one process on one directory would both write the journal), not
 * one gone that can be taken over.
 */
const heldHere = new Set<string>();

/** The directory as one name, whatever path reached it. */
function canonical(directory: string): string {
  try {
    return realpathSync(directory);
  } catch {
    return resolve(directory);
  }
}

/** How many times a lock another process is taking over is looked at again, a few ms apart. */
const ATTEMPTS = 100;

/**
 * Takes the directory's lock for this process. `LOCK` is created exclusively (a hard link to a
 * file already holding our pid and start time, so it is never seen half-written). A lock whose
 * owner is gone (killed, crashed; or its pid now belongs to a process that started later) is
 * taken over atomically: each process taking over first marks itself with a file of its own
 * (`LOCK.takeover.PID.START`) and goes on only when no other live process has one; it then
 * renames its lock over the dead one, which it checked is still there. Two processes racing on
 * a dead owner's lock never both get it. A lock held by a live process is refused with a
 * `DataDirectoryError` naming its pid (and program), as is a `LOCK` that is not a regular file.
 * Returns the release.
 *
 * @example
 * const release = lockDataDirectory('/var/lib/sandbox');
 * release(); // at exit
 */
export function lockDataDirectory(directory: string): () => void {
  const path = join(directory, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, start: processStart(process.pid) };
  const here = canonical(directory);
  const ours = join(directory, `${LOCK_FILE}.${me.pid}.new`);
  try {
    writeFileSync(ours, lockText(me), { mode: 0o600 });
  } catch (error) {
    throw fileError('create', path, error);
  }
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (createExclusive(ours, path, me)) return releaser(path, me, here);
      const held = readLock(path, directory);
      if (held === undefined) continue; // released meanwhile: create it again
      if (held !== 'unreadable' && held.pid === me.pid && heldHere.has(here)) {
        throw new DataDirectoryError(
          `the data directory ${directory} is in use by another sandbox of this process (pid ${me.pid}, lock file ${path}). Close that one first (mock.close()), or give each sandbox its own data directory.`,
        );
      }
      if (held !== 'unreadable' && (held.pid !== me.pid || held.start !== me.start)) {
        const state = held.pid === me.pid ? 'dead' : ownerState(held);
        if (state !== 'dead') throw refusal(directory, path, held, state);
      }
      // Its owner is gone (or it names nobody): take it over, one process at a time.
      const outcome = takeOver(directory, path, ours, held, me);
      if (outcome === 'taken') return releaser(path, me, here);
      if (outcome === 'busy') pause(1 + Math.floor(Math.random() * 4));
    }
  } finally {
    try {
      unlinkSync(ours);
    } catch {
      // Renamed into place, or never made.
    }
  }
  throw new DataDirectoryError(
    `could not take the lock file ${path}: other processes were taking over the same dead owner's lock all along. Is another sandbox starting on ${directory}? Try again.`,
  );
}

/** Links our lock file to `LOCK`; false when a `LOCK` is there already. */
function createExclusive(ours: string, path: string, me: LockOwner): boolean {
  try {
    linkSync(ours, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') {
      throw fileError('create', path, error);
    }
  }
  // A file system without hard links: an exclusive create, then the text.
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw fileError('create', path, error);
  }
  try {
    writeSync(fd, lockText(me));
  } finally {
    closeSync(fd);
  }
  return true;
}

const TAKEOVER = /^LOCK\.takeover\.(\d+)\.(\d*)$/;

/**
 * Replaces a dead owner's `LOCK` with ours, unless another live process is taking it over too
 * (`busy`: look again shortly) or it changed since it was read (`again`).
 */
function takeOver(
  directory: string,
  path: string,
  ours: string,
  held: LockOwner | 'unreadable',
  me: LockOwner,
): 'taken' | 'busy' | 'again' {
  const mark = join(directory, `${LOCK_FILE}.takeover.${me.pid}.${me.start ?? ''}`);
  try {
    writeFileSync(mark, '', { mode: 0o600 });
  } catch (error) {
    throw fileError('create', mark, error);
  }
  try {
    // Marked first, looked second: of two processes, the later to look sees the other's mark.
    for (const name of readdirSync(directory)) {
      const match = TAKEOVER.exec(name);
      if (match === null || join(directory, name) === mark) continue;
      const other: LockOwner = { pid: Number(match[1]), start: match[2] || undefined };
      if (ownerState(other) !== 'dead') return 'busy';
      try {
        unlinkSync(join(directory, name)); // a process that died while taking over
      } catch {
        // Removed by another.
      }
    }
    // Alone: no one else replaces LOCK now. Is it still the dead owner's?
    const now = readLock(path, directory);
    if (now === undefined) return 'again';
    const same =
      now === 'unreadable'
        ? held === 'unreadable'
        : held !== 'unreadable' && now.pid === held.pid && now.start === held.start;
    if (!same) return 'again';
    try {
      renameSync(ours, path);
    } catch (error) {
      throw fileError('replace', path, error);
    }
    return 'taken';
  } finally {
    try {
      unlinkSync(mark);
    } catch {
      // Already gone.
    }
  }
}

function refusal(
  directory: string,
  path: string,
  held: LockOwner,
  state: OwnerState,
): DataDirectoryError {
  if (state === 'unverified') {
    const name = processName(held.pid);
    const running = name === undefined ? '' : ` (${JSON.stringify(name)})`;
    return new DataDirectoryError(
      `the lock file ${path} names pid ${held.pid}, a running process${running}, but records no start time to tell whether that process wrote it (an older sandbox, or a pid reused since). If no sandbox uses ${directory}, delete ${path} and start again; otherwise stop pid ${held.pid}, or start this one with another --data-dir.`,
    );
  }
  return new DataDirectoryError(
    `the data directory ${directory} is in use by another sandbox (pid ${held.pid}, lock file ${path}). Stop that process, or start this one with another --data-dir.`,
  );
}

const CANDIDATE = /^LOCK\.(\d+)\.new$/;

/** Removes `LOCK` at exit, if it is still ours; first clears what dead processes left beside it. */
function releaser(path: string, me: LockOwner, here: string): () => void {
  clearLeftovers(dirname(path), me);
  heldHere.add(here);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    heldHere.delete(here);
    try {
      const now = parseLock(readFileSync(path, 'utf8'));
      if (now?.pid === me.pid && now.start === me.start) unlinkSync(path);
    } catch {
      // Already gone: nothing to release.
    }
  };
}

/** Deletes the `LOCK.PID.new` files of processes killed while they took the lock. */
function clearLeftovers(directory: string, me: LockOwner): void {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(CANDIDATE.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isInteger(pid) || pid === me.pid || pidRuns(pid)) continue;
    try {
      unlinkSync(join(directory, name));
    } catch {
      // Removed by another.
    }
  }
}
