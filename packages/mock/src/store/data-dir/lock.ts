// One process per data directory: a lock file holding the owner's pid, taken over only from a dead owner.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The lock file's name inside a data directory. */
export const LOCK_FILE = 'LOCK';

/** Why a data directory could not be used; the message names the file and what to do. */
export class DataDirectoryError extends Error {
  override readonly name = 'DataDirectoryError';
}

/** Whether a process with this pid is alive on this machine. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the directory's lock for this process: creates `LOCK` exclusively with our pid. A lock
 * left by a process that is no longer running (killed, crashed) is taken over; one held by a
 * live process is refused with a `DataDirectoryError` naming its pid. Returns the release.
 *
 * @example
 * const release = lockDataDirectory('/var/lib/sandbox');
 * release(); // at exit
 */
export function lockDataDirectory(directory: string): () => void {
  const path = join(directory, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new DataDirectoryError(
          `cannot create the lock file ${path}: ${(error as Error).message}. Check that the directory is writable by this user.`,
        );
      }
    }
    let owner = Number.NaN;
    try {
      owner = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    } catch {
      continue; // removed meanwhile: try again
    }
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
      throw new DataDirectoryError(
        `the data directory ${directory} is in use by another sandbox (pid ${owner}, lock file ${path}). Stop that process, or start this one with another --data-dir.`,
      );
    }
    // A dead owner's (or our own earlier, or an unreadable) lock: take it over.
    try {
      unlinkSync(path);
    } catch {
      // Another process took it over first: the next attempt sees its lock.
    }
  }
  throw new DataDirectoryError(
    `could not take the lock file ${path}: another process keeps taking it. Is another sandbox starting on the same --data-dir?`,
  );
}
