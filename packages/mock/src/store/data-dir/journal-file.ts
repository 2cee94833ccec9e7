// The journal's file format: one change a line, each with a CRC-32 of its text, read back with torn-tail and corruption checks.
import { isAscii } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import type { JournalLine } from './journal.js';
import { DataDirectoryError } from './lock.js';

/** The journal format this build writes and reads. */
export const JOURNAL_FORMAT_VERSION = 1;

/** The first line of every journal file: what wrote it. */
export interface JournalHeader {
  format: 'payment-service-mock-journal';
  version: number;
  /** Files are numbered: a compaction writes the next one and deletes the older. */
  generation: number;
}

const hex = (value: number) => value.toString(16).padStart(8, '0');

/**
 * One journal line as written: the CRC-32 of the JSON in hex, a space, the JSON, a newline.
 *
 * @example
 * encodeLine(['o', 'keyid', 60]); // '1c291ca3 ["o","keyid",60]\n'
 */
export function encodeLine(value: JournalLine | JournalHeader | JournalGroup): string {
  const json = JSON.stringify(value);
  return `${hex(crc32(json))} ${json}\n`;
}

/**
 * The changes of one step written as one line, so that they are read back all or none: a write
 * cut short by a crash (kill -9 can stop one between two pages) loses the whole step, never
 * leaves a payment changed without its idempotency record.
 */
export type JournalGroup = ['g', JournalLine[]];

/**
 * The JSON of one change, taken when it is made (a later change to the same objects is a line of
 * its own); `encodeStep` writes a step's changes.
 *
 * @example
 * changeJson(['o', keyId, 60]); // '["o","…",60]'
 */
export function changeJson(line: JournalLine): string {
  return JSON.stringify(line);
}

/**
 * The text of one step's changes (each `changeJson`): a line of its own for one change, one group
 * line for several.
 *
 * @example
 * encodeStep([changeJson(paymentLine), changeJson(recordLine)]); // '1a2b3c4d ["g",[["p",…],["i",…]]]\n'
 */
export function encodeStep(changes: string[]): string {
  const json = changes.length === 1 ? (changes[0] as string) : `["g",[${changes.join(',')}]]`;
  return `${hex(crc32(json))} ${json}\n`;
}

/** Where a journal file's scan ended: its header, and where a torn last line was cut. */
export interface ReadJournal {
  header: JournalHeader;
  /** Changes read (and handed on) after the header. */
  changes: number;
  /** Bytes of whole lines: a torn last line starts here and is to be cut off. */
  validBytes: number;
  /** Set when the last line was torn (a crash in the middle of a write): its offset. */
  tornAt: number | undefined;
}

/** Reads `length` bytes at `position` into `buffer` at `offset`; returns how many it read. */
export type ReadAt = (buffer: Buffer, offset: number, length: number, position: number) => number;

/**
 * Bytes read from the file at once: lines are parsed and handed on as they come. Measured on
 * 100,000 payments: 16-64 KiB read and parse fastest; from 128 KiB the chunk's text is a large
 * object of V8's, and parsing views of it took twice as long.
 */
const CHUNK_BYTES = 64 << 10;

/**
 * Reads a journal file line by line, handing each change to `onChange` as soon as it is checked
 * (nothing is held: a 100 MB journal is replayed in one pass with little garbage). A last line
 * without its newline is a write cut short by a crash: it is left out and reported in `tornAt`.
 * Any other bad line (a whole line whose checksum fails, the last one included), and a change
 * `onChange` throws on, is corruption: a `DataDirectoryError` naming the file, the byte offset
 * and how to recover.
 *
 * @example
 * const fd = openSync(path, 'r');
 * readJournal((b, o, l, p) => readSync(fd, b, o, l, p), path, (change) => apply(change));
 */
export function readJournal(
  read: ReadAt,
  path: string,
  onChange: (line: JournalLine) => void,
  chunkBytes = CHUNK_BYTES,
): ReadJournal {
  let buffer = Buffer.allocUnsafe(chunkBytes);
  let filled = 0; // bytes in `buffer`
  let base = 0; // file offset of buffer[0]
  let eof = false;
  let header: JournalHeader | undefined;
  let changes = 0;
  let tornAt: number | undefined;
  // The buffer's text, decoded once per read (latin1: one character a byte) when it is all
  // ASCII: each line is then parsed from a view of it, not from a string of its own.
  let text: string | undefined;
  let textFilled = -1;
  const refill = () => {
    if (filled === buffer.length) {
      // One line longer than the buffer: grow it.
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
    }
    const got = read(buffer, filled, buffer.length - filled, base + filled);
    text = undefined; // decoded again for the lines now in the buffer
    textFilled = -1;
    if (got === 0) eof = true;
    filled += got;
  };
  const lineText = (from: number, to: number): string => {
    if (textFilled === -1) {
      textFilled = filled;
      const view = buffer.subarray(0, filled);
      text = isAscii(view) ? view.toString('latin1') : undefined;
    }
    return text === undefined ? buffer.toString('utf8', from, to) : text.slice(from, to);
  };
  let start = 0; // buffer index of the line being read
  for (;;) {
    const end = buffer.indexOf(10, start);
    if (end === -1 || end >= filled) {
      if (eof) {
        if (start < filled) tornAt = base + start; // a last line with no newline
        break;
      }
      // Keep the partial line, read more after it.
      buffer.copy(buffer, 0, start, filled);
      base += start;
      filled -= start;
      start = 0;
      refill();
      continue;
    }
    const value = checkedValue(buffer, start, end, lineText);
    const offset = base + start;
    if (value === undefined) {
      // A whole line (its newline written) whose checksum fails was not cut short by a crash,
      // last or not: it is damage, and what it held may have been answered.
      if (end + 1 === filled) refill();
      const where = eof && end + 1 === filled ? 'the last line, whole with its newline,' : 'a line';
      throw new DataDirectoryError(
        `the journal ${path} is corrupt at byte ${offset}: ${where} does not match its checksum or is not JSON (damage on disk, not a write cut short by a crash, which leaves a last line without its newline). ${recovery(path, offset)}`,
      );
    }
    if (header === undefined) {
      header = checkHeader(value, path);
    } else if (Array.isArray(value) && value[0] === 'g') {
      const group: unknown = value[1];
      if (!Array.isArray(group) || !group.every((line) => isChange(line) && line[0] !== 'g')) {
        throw new DataDirectoryError(
          `the journal ${path} holds a group of changes that is not a list of changes at byte ${offset}. ${recovery(path, offset)}`,
        );
      }
      try {
        for (const line of group as JournalLine[]) onChange(line);
      } catch (error) {
        throw notApplied(error, path, offset);
      }
      changes += group.length;
    } else if (!isChange(value)) {
      throw new DataDirectoryError(
        `the journal ${path} holds a line that is not a change at byte ${offset} (a change is a list of its kind and its key id, both strings, then its data). ${recovery(path, offset)}`,
      );
    } else {
      try {
        onChange(value as unknown as JournalLine);
      } catch (error) {
        throw notApplied(error, path, offset);
      }
      changes++;
    }
    start = end + 1;
  }
  if (header === undefined) {
    throw new DataDirectoryError(
      `the journal ${path} has no header line (it is empty or was never finished). Move it away to start empty.`,
    );
  }
  return { header, changes, validBytes: tornAt ?? base + filled, tornAt };
}

/** Whether a line's value has the frame of a change: its kind and its key id, both strings. */
function isChange(value: unknown): value is [string, string, ...unknown[]] {
  return Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string';
}

/**
 * How to get going again from a journal damaged at `offset`: a backup, or the changes before it.
 *
 * @example
 * recovery('/data/journal.1.log', 4096); // 'Restore the directory from a backup; or, to start …'
 */
export function recovery(path: string, offset: number): string {
  const quoted = `'${path.replaceAll("'", "'\\''")}'`;
  return `Restore the directory from a backup; or, to start from the changes before it (that line and everything after it are lost), stop every sandbox on the directory and cut the file there: truncate -s ${offset} ${quoted}`;
}

/** A change that could not be applied (of an unknown kind, or with wrong types), named by file and offset. */
function notApplied(error: unknown, path: string, offset: number): DataDirectoryError {
  const message = error instanceof Error ? error.message : String(error);
  return new DataDirectoryError(
    `the journal ${path} holds a change at byte ${offset} that this version cannot apply (${message}): written by hand, by another program or by a bug. ${recovery(path, offset)}`,
  );
}

/**
 * A line's value (bytes `start` to the newline at `end`) when its checksum (eight lowercase hex
 * digits) holds, else undefined. `textOf` gives the text of a byte range (default: decoded).
 */
function checkedValue(
  buffer: Buffer,
  start: number,
  end: number,
  textOf: (from: number, to: number) => string = (from, to) => buffer.toString('utf8', from, to),
): unknown {
  if (end - start < 9 || buffer[start + 8] !== 32) return undefined;
  let expected = 0;
  for (let index = start; index < start + 8; index++) {
    const digit = HEX_DIGIT[buffer[index] as number] as number;
    if (digit < 0) return undefined;
    expected = expected * 16 + digit;
  }
  if (expected !== crc32(buffer.subarray(start + 9, end))) return undefined;
  try {
    return JSON.parse(textOf(start + 9, end));
  } catch {
    return undefined;
  }
}

/** Each byte's value as a lowercase hex digit, -1 when it is not one. */
const HEX_DIGIT = Int8Array.from({ length: 256 }, (_, byte) => {
  if (byte >= 48 && byte <= 57) return byte - 48;
  if (byte >= 97 && byte <= 102) return byte - 87;
  return -1;
});

/**
 * Checks a journal file's first line (its header) without reading the rest: a file of a newer
 * format, or one that is not ours, is refused before anything else happens.
 *
 * @example
 * checkJournalHeader('/var/lib/sandbox/journal.3.log'); // the header, or a DataDirectoryError
 */
export function checkJournalHeader(path: string): JournalHeader {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(HEADER_BYTES);
    const length = readSync(fd, buffer, 0, HEADER_BYTES, 0);
    const end = buffer.subarray(0, length).indexOf(10);
    const value = end === -1 ? undefined : checkedValue(buffer, 0, end);
    if (value === undefined) {
      throw new DataDirectoryError(
        `the journal ${path} has no header line (it is empty or was never finished). Move it away to start empty.`,
      );
    }
    return checkHeader(value, path);
  } finally {
    closeSync(fd);
  }
}

/** A header line is far shorter than this. */
const HEADER_BYTES = 4096;

function checkHeader(value: unknown, path: string): JournalHeader {
  const header = value as Partial<JournalHeader> | null;
  if (header?.format !== 'payment-service-mock-journal' || typeof header.version !== 'number') {
    throw new DataDirectoryError(
      `${path} is not a journal of this sandbox (its first line is not our header). Point --data-dir at a directory of its own.`,
    );
  }
  if (header.version > JOURNAL_FORMAT_VERSION) {
    throw new DataDirectoryError(
      `${path} was written by a newer version of the sandbox (journal format ${header.version}; this one reads up to ${JOURNAL_FORMAT_VERSION}). Upgrade @payment-service/mock, or start with another --data-dir.`,
    );
  }
  if (header.version < JOURNAL_FORMAT_VERSION) {
    throw new DataDirectoryError(
      `${path} was written in journal format ${header.version}, which this version cannot migrate. Start the version that wrote it, or move the directory away to start empty.`,
    );
  }
  return header as JournalHeader;
}
