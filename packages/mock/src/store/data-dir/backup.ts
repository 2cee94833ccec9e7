// A consistent copy of a data directory, taken while a sandbox may be writing it: the whole lines of its newest journal, checked, without the lock.
import {
  closeSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { readJournal } from './journal-file.js';
import { DataDirectoryError, fileError } from './lock.js';

const JOURNAL = /^journal\.(\d+)\.log$/;

/** What `backupDataDirectory` wrote. */
export interface Backup {
  /** The journal file written in the target directory. */
  file: string;
  bytes: number;
  /** Changes in it (each is replayed by a sandbox started on the copy). */
  changes: number;
}

/** How many times the copy is tried again when a compaction replaced the journal meanwhile. */
const ATTEMPTS = 5;

/**
 * Copies the data directory `source` into the new directory `target`, consistently, while a
 * sandbox may be running on it: the newest journal is opened (a compaction that replaces it
 * later leaves the opened file whole), and its bytes up to the last newline are copied. The
 * sandbox only appends, one step's changes a line, so those bytes are its state at one instant:
 * every change answered before the copy began, none half-written. The copy is checked line by
 * line (checksums, framing) before it is renamed into place; it has no `LOCK`, so a sandbox
 * starts on it at once. Refuses with a `DataDirectoryError` a target that exists and is not
 * empty, and a source with no journal.
 *
 * @example
 * backupDataDirectory('/var/lib/sandbox', '/backups/sandbox-2026-11-27');
 */
export function backupDataDirectory(source: string, target: string): Backup {
  let existing: string[] = [];
  try {
    existing = readdirSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileError('read', target, error);
  }
  if (existing.length > 0) {
    throw new DataDirectoryError(
      `the backup's directory ${target} exists and is not empty: give a new or empty directory.`,
    );
  }
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const name = newestJournal(source);
    const from = join(source, name);
    let content: Buffer;
    try {
      content = readWhole(from);
    } catch (error) {
      // Replaced by a compaction between the listing and the open: list again.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw fileError('read', from, error);
    }
    // The lines written whole; a write in progress (no newline yet) was not answered.
    const whole = content.subarray(0, content.lastIndexOf(10) + 1);
    const { changes } = readJournal(
      (buffer, offset, length, position) =>
        whole.copy(buffer, offset, position, Math.min(whole.length, position + length)),
      from,
      () => {},
    );
    return { file: writeCopy(target, name, whole), bytes: whole.length, changes };
  }
  throw new DataDirectoryError(
    `the journal of ${source} was replaced ${ATTEMPTS} times while it was being copied (compactions in a row?): try again.`,
  );
}

/** The name of the newest journal in `directory`. */
function newestJournal(directory: string): string {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch (error) {
    throw fileError('read', directory, error);
  }
  const generations = names
    .map((name) => JOURNAL.exec(name)?.[1])
    .filter((value): value is string => value !== undefined)
    .map(Number)
    .sort((a, b) => b - a);
  if (generations[0] === undefined) {
    throw new DataDirectoryError(
      `${directory} holds no journal (journal.N.log): it is not a sandbox's data directory.`,
    );
  }
  return `journal.${generations[0]}.log`;
}

/** The bytes of a file as it is when opened (its size then: appended later is not read). */
function readWhole(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const content = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const got = readSync(fd, content, read, size - read, read);
      if (got === 0) break;
      read += got;
    }
    return content.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** The file calls `writeCopy` makes: node:fs's, or a test's that fails one of them. */
export interface CopyFiles {
  mkdirSync: typeof mkdirSync;
  openSync: typeof openSync;
  writeSync: typeof writeSync;
  fsyncSync: typeof fsyncSync;
  closeSync: typeof closeSync;
  renameSync: typeof renameSync;
}

const NODE_FILES: CopyFiles = {
  mkdirSync,
  openSync,
  writeSync,
  fsyncSync,
  closeSync,
  renameSync,
};

/**
 * Writes the copy beside its place (`<name>.tmp`), syncs it, renames it into place; returns its
 * path. When any step fails, nothing of the copy is left: the `.tmp` file is removed, and so is
 * the target directory if this call made it (the backup can be tried again on the same target).
 *
 * @example
 * writeCopy('/backups/sandbox-2026-11-27', 'journal.3.log', whole); // '/backups/sandbox-2026-11-27/journal.3.log'
 */
export function writeCopy(
  target: string,
  name: string,
  content: Buffer,
  files: CopyFiles = NODE_FILES,
): string {
  const file = join(target, name);
  const temporary = `${file}.tmp`;
  let made: string | undefined;
  let renamed = false;
  try {
    made = files.mkdirSync(target, { recursive: true, mode: 0o700 });
    const fd = files.openSync(temporary, 'w', 0o600);
    try {
      let written = 0;
      while (written < content.length) written += files.writeSync(fd, content, written);
      files.fsyncSync(fd);
    } finally {
      files.closeSync(fd);
    }
    files.renameSync(temporary, file);
    renamed = true;
    const directory = files.openSync(target, 'r');
    try {
      files.fsyncSync(directory);
    } catch {
      // Some file systems cannot sync a directory: the rename is still atomic.
    } finally {
      files.closeSync(directory);
    }
  } catch (error) {
    // Renamed: the copy is whole and in place; only its directory's sync failed.
    if (!renamed) removeLeftovers(temporary, made);
    throw fileError('write', (error as NodeJS.ErrnoException).path ?? file, error);
  }
  return file;
}

/** What a failed copy leaves: its `.tmp` file, and the directories made for it. Never throws. */
function removeLeftovers(temporary: string, made: string | undefined): void {
  try {
    rmSync(temporary, { force: true });
    // Made by this copy a moment ago: it holds nothing else.
    if (made !== undefined) rmSync(made, { recursive: true, force: true });
  } catch {
    // The write's own error is the one to report.
  }
}
