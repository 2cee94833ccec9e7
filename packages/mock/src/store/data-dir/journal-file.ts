// The journal's file format: one change a line, each with a CRC-32 of its text, read back with torn-tail and corruption checks.
import { crc32 } from 'node:zlib';
import type { JournalLine } from '../journal.js';
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
export function encodeLine(value: JournalLine | JournalHeader): string {
  const json = JSON.stringify(value);
  return `${hex(crc32(json))} ${json}\n`;
}

/** A journal file read back: its header and changes, and where a torn last line was cut. */
export interface ReadJournal {
  header: JournalHeader;
  lines: JournalLine[];
  /** Bytes of whole lines: a torn last line starts here and is to be cut off. */
  validBytes: number;
  /** Set when the last line was torn (a crash in the middle of a write): its offset. */
  tornAt: number | undefined;
}

/**
 * Reads a journal file's text. A last line without its newline, or whose checksum fails, is a
 * write cut short by a crash: it is left out and reported in `tornAt`. Any other bad line is
 * corruption: a `DataDirectoryError` naming the file and the byte offset.
 *
 * @example
 * const { header, lines } = readJournal(readFileSync(path), path);
 */
export function readJournal(content: Buffer, path: string): ReadJournal {
  const lines: JournalLine[] = [];
  let header: JournalHeader | undefined;
  let offset = 0;
  let tornAt: number | undefined;
  while (offset < content.length) {
    const end = content.indexOf(10, offset);
    const last = end === -1 || end === content.length - 1;
    const parsed = end === -1 ? undefined : parseLine(content.toString('utf8', offset, end));
    if (parsed === undefined) {
      if (last) {
        tornAt = offset;
        break;
      }
      throw new DataDirectoryError(
        `the journal ${path} is corrupt at byte ${offset} (a line whose checksum or JSON is wrong, not at the end of the file). Restore the directory from a backup, or move it away to start empty.`,
      );
    }
    if (header === undefined) {
      header = checkHeader(parsed, path);
    } else if (!Array.isArray(parsed) || typeof parsed[0] !== 'string') {
      throw new DataDirectoryError(
        `the journal ${path} holds a line that is not a change at byte ${offset}. Restore the directory from a backup, or move it away to start empty.`,
      );
    } else {
      lines.push(parsed as JournalLine);
    }
    offset = end + 1;
  }
  if (header === undefined) {
    throw new DataDirectoryError(
      `the journal ${path} has no header line (it is empty or was never finished). Move it away to start empty.`,
    );
  }
  return { header, lines, validBytes: tornAt ?? content.length, tornAt };
}

/** A line's value when its checksum holds, else undefined. */
function parseLine(text: string): unknown {
  const space = text.indexOf(' ');
  if (space !== 8) return undefined;
  const json = text.slice(9);
  if (text.slice(0, 8) !== hex(crc32(json))) return undefined;
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

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
