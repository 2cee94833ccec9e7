// The sandbox's data directory: a locked directory holding one journal file, appended before each answer and compacted as it grows.
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { JournalLine, StoreJournal } from './journal.js';
import {
  changeJson,
  checkJournalHeader,
  encodeLine,
  encodeStep,
  JOURNAL_FORMAT_VERSION,
  type JournalHeader,
  readJournal,
} from './journal-file.js';
import { DataDirectoryError, fileError, lockDataDirectory } from './lock.js';

export { DataDirectoryError } from './lock.js';

/**
 * The journal is compacted once it is larger than this and than the live data, and twice its
 * last compacted size (at start-up, twice the live data).
 */
export const MIN_COMPACT_BYTES = 16 * 1024 * 1024;
/** How often written changes are forced to the disk (fdatasync), in ms. */
export const FSYNC_INTERVAL_MS = 1000;

const JOURNAL = /^journal\.(\d+)\.log$/;
const journalName = (generation: number) => `journal.${generation}.log`;

/** Where the data directory reports what it found and what went wrong. */
export interface DataDirectoryOptions {
  log?: ((line: string) => void) | undefined;
}

/** What the data directory needs of the store it keeps: its live size and its whole content. */
export interface StoreContent {
  /** Bytes the store holds (its own estimate): the journal is compacted when it outgrows them. */
  liveBytes(): number;
  /** Every change that rebuilds the store as it is now. */
  dump(): Iterable<JournalLine>;
}

/**
 * A data directory, open and locked. Changes are written to its journal with `write()`, which
 * collects them; `flush()` writes what was collected with one `write(2)` before the answer that
 * follows is sent (so a `kill -9` loses nothing answered), and `fdatasync` runs once a second
 * (so a power loss loses at most the last second). A write the disk refuses (full, failing) is
 * kept and retried: until it goes through, `failure` says why and the server refuses requests.
 *
 * @example
 * const directory = DataDirectory.open('/var/lib/sandbox');
 * directory.replay((change) => applyChange(store, change));
 * directory.attach({ liveBytes: () => store.stats().bytes, dump: () => dumpStore(store) });
 */
export class DataDirectory implements StoreJournal {
  private fd: number;
  private fileBytes: number;
  private pending: string[] = [];
  private flushQueued = false;
  private dirty = false;
  /** A background fdatasync is running; descriptors retired meanwhile are closed after it. */
  private syncing = false;
  private retired: number[] = [];
  private content: StoreContent | undefined;
  /** The journal to read back before anything is written, and the older files to delete then. */
  private unread: { file: string; older: string[] } | undefined;
  private fsyncTimer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  /** Why the last write failed, while it has not gone through yet. */
  failure: string | undefined;
  /** The journal size at which the next compaction is tried. */
  private compactAt = MIN_COMPACT_BYTES;

  private constructor(
    readonly path: string,
    private generation: number,
    private readonly release: () => void,
    private readonly options: DataDirectoryOptions,
    journal: { fd: number; bytes: number; unread?: { file: string; older: string[] } },
  ) {
    this.fd = journal.fd;
    this.fileBytes = journal.bytes;
    this.unread = journal.unread;
  }

  /**
   * Opens (creating it if need be) and locks a data directory, and reads its journal. Refuses,
   * with a `DataDirectoryError` naming the file and what to do: a directory that cannot be
   * written, one another live process holds, a journal of a newer format, or a corrupt one. A
   * torn last line (a crash during a write) is cut off with one warning.
   */
  static open(path: string, options: DataDirectoryOptions = {}): DataDirectory {
    try {
      mkdirSync(path, { recursive: true });
    } catch (error) {
      throw new DataDirectoryError(
        `cannot create the data directory ${path}: ${(error as Error).message}. Choose a path you can write.`,
      );
    }
    const release = lockDataDirectory(path);
    try {
      const { generation, ...journal } = openJournal(path);
      return new DataDirectory(path, generation, release, options, journal);
    } catch (error) {
      release();
      throw fileError('use', (error as NodeJS.ErrnoException).path ?? path, error);
    }
  }

  /**
   * Reads the journal back, handing each change to `apply` as it is read (once, before
   * `attach`; nothing is held). A torn last line is cut off with one warning; corruption throws
   * a `DataDirectoryError` naming the file and the offset. Returns how many changes it read.
   */
  replay(apply: (line: JournalLine) => void): number {
    const unread = this.unread;
    if (unread === undefined) return 0;
    this.unread = undefined;
    let fd: number;
    try {
      fd = openSync(unread.file, 'r+');
    } catch (error) {
      throw fileError('open', unread.file, error);
    }
    try {
      const read = readJournal(
        (buffer, offset, length, position) => readSync(fd, buffer, offset, length, position),
        unread.file,
        apply,
      );
      if (read.tornAt !== undefined) {
        this.options.log?.(
          `data directory: dropped a torn last change at byte ${read.tornAt} of ${unread.file} (a write cut short by a crash; it was never answered)`,
        );
        ftruncateSync(fd, read.validBytes);
        fsyncSync(fd);
      }
      this.fileBytes = read.validBytes;
      for (const older of unread.older) {
        try {
          unlinkSync(older);
        } catch (error) {
          throw fileError('delete', older, error);
        }
      }
      return read.changes;
    } finally {
      closeSync(fd);
    }
  }

  /** Starts keeping the store: its changes are written from now on, and fsynced once a second. */
  attach(content: StoreContent): void {
    if (this.unread !== undefined) {
      throw new TypeError('DataDirectory.attach: replay() the journal before attaching a store');
    }
    this.content = content;
    // The file's last compacted size is not known after a restart; the live data is what a
    // compaction would write now. A journal that outgrew it twice over (a reset, expiries, a
    // key's oldest data forgotten before the restart) is compacted now, not after doubling again.
    this.compactAt = Math.max(MIN_COMPACT_BYTES, content.liveBytes() * 2);
    if (this.fileBytes >= this.compactAt) {
      const before = this.fileBytes;
      if (this.compact()) {
        this.options.log?.(
          `data directory: compacted ${this.journalPath} at start-up (${before} bytes, mostly data no longer live, now ${this.fileBytes})`,
        );
      }
    }
    this.fsyncTimer = setInterval(() => this.syncInBackground(), FSYNC_INTERVAL_MS);
    this.fsyncTimer.unref?.();
  }

  /** Whether `write()` keeps changes: not while replaying, nor once closed. */
  get recording(): boolean {
    return this.content !== undefined && !this.closed;
  }

  write(line: JournalLine): void {
    if (this.content === undefined || this.closed) return; // replaying, or closed
    this.pending.push(changeJson(line));
    if (!this.flushQueued) {
      this.flushQueued = true;
      // At the latest when the current synchronous step ends: a step's changes go out together.
      queueMicrotask(() => {
        this.flushQueued = false;
        this.flush();
      });
    }
  }

  /**
   * Writes every collected change to the journal (one write). Returns false, keeping them for
   * the next try, when the disk refuses; the journal is then cut back to its last whole line.
   */
  flush(): boolean {
    if (this.pending.length > 0 && !this.closed) {
      // One line for the step's changes, however many: read back all or none after a crash.
      const text = encodeStep(this.pending);
      try {
        writeAll(this.fd, Buffer.from(text, 'utf8'));
      } catch (error) {
        this.refused(error);
        return false;
      }
      this.fileBytes += Buffer.byteLength(text);
      this.pending = [];
      this.dirty = true;
      if (this.failure !== undefined) {
        this.options.log?.(`data directory: writes to ${this.path} go through again`);
        this.failure = undefined;
      }
      this.compactIfDue();
    }
    return this.failure === undefined;
  }

  /**
   * Forces written changes to the disk off the event loop (the once-a-second timer): an
   * `fdatasync` of a busy journal can take a few hundred ms, which must not stall the answers.
   */
  private syncInBackground(): void {
    if (!this.dirty || this.closed || this.syncing) return;
    this.syncing = true;
    this.dirty = false;
    const fd = this.fd;
    fdatasync(fd, (error) => {
      this.syncing = false;
      if (error !== null) {
        if (fd === this.fd) this.dirty = true;
        this.options.log?.(`data directory: fdatasync of ${this.path} failed: ${error.message}`);
      }
      for (const retired of this.retired.splice(0)) closeQuietly(retired);
    });
  }

  /** Closes a journal's descriptor, once no background sync is using it. */
  private retire(fd: number): void {
    if (this.syncing) this.retired.push(fd);
    else closeQuietly(fd);
  }

  /** Forces written changes to the disk now (at close; the timer syncs in the background). */
  sync(): void {
    if (!this.dirty || this.closed) return;
    try {
      fdatasyncSync(this.fd);
      this.dirty = false;
    } catch (error) {
      this.options.log?.(
        `data directory: fdatasync of ${this.path} failed: ${(error as Error).message}`,
      );
    }
  }

  /** Writes what is collected, syncs, closes the journal and releases the lock. */
  close(): void {
    if (this.closed) return;
    if (this.fsyncTimer !== undefined) clearInterval(this.fsyncTimer);
    this.flush();
    // A background sync may still be running: this one makes everything durable before the exit.
    if (this.syncing) this.dirty = true;
    this.sync();
    this.closed = true;
    try {
      this.retire(this.fd);
    } finally {
      this.release();
    }
  }

  /** The journal file in use now (for diagnostics and tests). */
  get journalPath(): string {
    return join(this.path, journalName(this.generation));
  }

  /** Bytes of the journal file in use now. */
  get bytes(): number {
    return this.fileBytes;
  }

  /**
   * Rewrites the journal as the store is now (a new file, written, synced and renamed into
   * place), once it has outgrown the live data: what a reset, an eviction or an expiry freed
   * leaves the disk. A compaction the disk refuses leaves the old journal in use.
   */
  compact(): boolean {
    const content = this.content;
    if (content === undefined || this.closed) return false;
    const next = this.generation + 1;
    const finalPath = join(this.path, journalName(next));
    const temporary = `${finalPath}.tmp`;
    let fd: number | undefined;
    let bytes = 0;
    try {
      fd = openSync(temporary, 'w', 0o600);
      const header: JournalHeader = {
        format: 'payment-service-mock-journal',
        version: JOURNAL_FORMAT_VERSION,
        generation: next,
      };
      let chunk = encodeLine(header);
      for (const line of content.dump()) {
        chunk += encodeLine(line);
        if (chunk.length >= 1 << 20) {
          bytes += writeAll(fd, Buffer.from(chunk, 'utf8'));
          chunk = '';
        }
      }
      bytes += writeAll(fd, Buffer.from(chunk, 'utf8'));
      fsyncSync(fd);
      closeSync(fd);
      fd = undefined;
      renameSync(temporary, finalPath);
      syncDirectory(this.path);
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      try {
        unlinkSync(temporary);
      } catch {
        // Never created.
      }
      this.options.log?.(
        `data directory: could not compact ${this.journalPath}: ${(error as Error).message}; it stays in use`,
      );
      this.compactAt = this.fileBytes * 2;
      return false;
    }
    const old = this.journalPath;
    this.retire(this.fd);
    this.fd = openSync(finalPath, 'a', 0o600);
    this.generation = next;
    this.fileBytes = bytes;
    this.dirty = false;
    this.compactAt = Math.max(MIN_COMPACT_BYTES, bytes * 2);
    try {
      unlinkSync(old);
    } catch {
      // Deleted at the next start if still there.
    }
    return true;
  }

  private compactIfDue(): void {
    const content = this.content;
    if (content === undefined || this.fileBytes < this.compactAt) return;
    if (this.fileBytes < content.liveBytes()) {
      this.compactAt = this.fileBytes * 2;
      return;
    }
    this.compact();
  }

  private refused(error: unknown): void {
    const message = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    if (this.failure === undefined) {
      this.options.log?.(
        `data directory: cannot write ${this.journalPath} (${message}); requests are refused until it can`,
      );
    }
    this.failure = message;
    try {
      // A write cut short leaves half a line: cut it off, so the next write starts a whole one.
      ftruncateSync(this.fd, this.fileBytes);
    } catch {
      // Left for the start-up check (a torn last line is dropped there).
    }
  }
}

/** Writes a whole buffer (a regular file may take it in parts). Returns its length. */
function writeAll(fd: number, buffer: Buffer): number {
  let written = 0;
  while (written < buffer.length) written += writeSync(fd, buffer, written);
  return buffer.length;
}

/** Makes a rename in the directory durable. */
function syncDirectory(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems cannot sync a directory: the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Opens the directory's newest journal for appending (creating the first), after checking its
 * header: an unfinished compaction's file is deleted, and older generations are deleted once
 * the newest has been read back.
 */
function openJournal(path: string): {
  generation: number;
  fd: number;
  bytes: number;
  unread?: { file: string; older: string[] };
} {
  const names = readdirSync(path);
  for (const name of names) {
    if (!JOURNAL.test(name)) continue;
    const file = join(path, name);
    if (!statSync(file).isFile()) {
      throw new DataDirectoryError(
        `${file} is not a file (a directory, or something else named as a journal): the sandbox keeps its journal in a file of that name. Move it out of the data directory, or choose another --data-dir.`,
      );
    }
  }
  const generations = names
    .map((name) => JOURNAL.exec(name)?.[1])
    .filter((value): value is string => value !== undefined)
    .map(Number)
    .sort((a, b) => b - a);
  for (const name of names) {
    if (/^journal\.\d+\.log\.tmp$/.test(name)) unlinkSync(join(path, name));
  }
  const newest = generations[0];
  if (newest === undefined) {
    const file = join(path, journalName(1));
    // Append mode, as every journal is opened: after a write the disk cut short is taken back
    // (ftruncate), the next one starts where it was cut, not past a hole of zeros.
    const fd = openSync(file, 'ax', 0o600);
    const header: JournalHeader = {
      format: 'payment-service-mock-journal',
      version: JOURNAL_FORMAT_VERSION,
      generation: 1,
    };
    const bytes = writeAll(fd, Buffer.from(encodeLine(header), 'utf8'));
    fsyncSync(fd);
    syncDirectory(path);
    return { generation: 1, fd, bytes };
  }
  const file = join(path, journalName(newest));
  checkJournalHeader(file);
  const older = generations.slice(1).map((generation) => join(path, journalName(generation)));
  return { generation: newest, fd: openSync(file, 'a', 0o600), bytes: 0, unread: { file, older } };
}

/** Closes a descriptor; one already closed (a failed disk) is nothing to report. */
function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}
