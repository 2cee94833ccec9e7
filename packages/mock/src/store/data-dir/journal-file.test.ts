import { describe, expect, it } from 'vitest';
import type { JournalLine } from './journal.js';
import { changeJson, encodeLine, encodeStep, type ReadAt, readJournal } from './journal-file.js';
import { DataDirectoryError } from './lock.js';

const header = encodeLine({ format: 'payment-service-mock-journal', version: 1, generation: 1 });
const changes: JournalLine[] = [
  ['o', 'key-a', 60],
  ['f', 'key-b', { latency_ms: 5 } as never],
  ['p-', 'key-a', `pay_${'x'.repeat(200)}`],
  ['o', 'key-c', -3],
];
const reader =
  (file: Buffer): ReadAt =>
  (buffer, offset, length, position) =>
    file.copy(buffer, offset, position, Math.min(file.length, position + length));

function readAll(file: Buffer, chunkBytes: number) {
  const seen: JournalLine[] = [];
  const result = readJournal(reader(file), 'journal.1.log', (line) => seen.push(line), chunkBytes);
  return { seen, result };
}

describe('readJournal', () => {
  it('reads every change whatever the chunk size, lines longer than a chunk included', () => {
    const file = Buffer.from(header + changes.map(encodeLine).join(''));
    for (const chunk of [7, 16, 64, 1 << 20]) {
      const { seen, result } = readAll(file, chunk);
      expect(seen).toEqual(changes);
      expect(result).toMatchObject({ changes: 4, validBytes: file.length, tornAt: undefined });
    }
  });

  it('reads lines beside non-ASCII text (parsed from bytes, not from the chunk as latin1)', () => {
    const mixed: JournalLine[] = [
      ['o', 'key-a', 60],
      ['f', 'key-ü', { description: 'Zahlung für café ☕' } as never],
      ['o', 'key-c', -3],
    ];
    const file = Buffer.from(header + mixed.map(encodeLine).join(''));
    for (const chunk of [7, 64, 1 << 20]) expect(readAll(file, chunk).seen).toEqual(mixed);
  });

  it('leaves out a torn last line (one without its newline) and says where it starts', () => {
    const whole = header + changes.map(encodeLine).join('');
    for (const tail of [
      '0badc0de ["o","k',
      '0badc0de ["o","k",1]',
      'zz',
      encodeLine(['o', 'k', 1]).slice(0, -1),
    ]) {
      const file = Buffer.from(whole + tail);
      const { seen, result } = readAll(file, 16);
      expect(seen).toEqual(changes);
      expect(result.tornAt).toBe(Buffer.byteLength(whole));
      expect(result.validBytes).toBe(Buffer.byteLength(whole));
    }
  });

  it("reads a step's changes written together as one group line, and drops the whole step when that line is torn", () => {
    const [first, ...rest] = changes as [JournalLine, ...JournalLine[]];
    expect(encodeStep([changeJson(first)])).toBe(encodeLine(first));
    const before = header + encodeLine(first);
    const group = encodeStep(rest.map(changeJson));
    expect(group).toMatch(/^[0-9a-f]{8} \["g",\[\["f",/);
    const whole = Buffer.from(before + group);
    expect(readAll(whole, 16).seen).toEqual(changes);
    expect(readAll(whole, 16).result.changes).toBe(4);
    // Cut anywhere inside the group (a write kill -9 stopped between two pages): none of it.
    for (const cut of [1, 30, group.length - 1]) {
      const { seen, result } = readAll(Buffer.from(before + group.slice(0, cut)), 16);
      expect(seen).toEqual([first]);
      expect(result.tornAt).toBe(Buffer.byteLength(before));
    }
  });

  it('refuses a group line that does not hold changes, naming the file and its offset', () => {
    for (const members of ['[1,2]', '[["g",[]]]', '"x"']) {
      const json = `["g",${members}]`;
      const bad = encodeStep([json]); // a line with a right checksum
      const file = Buffer.from(header + bad + encodeLine(['o', 'key-a', 1]));
      expect(() => readAll(file, 16)).toThrowError(
        `the journal journal.1.log holds a group of changes that is not a list of changes at byte ${Buffer.byteLength(header)}`,
      );
    }
  });

  it('refuses a bad line before the end, naming the file and its offset', () => {
    const lines = changes.map(encodeLine);
    const bad = lines[1]?.replace('latency_ms', 'latency_mz');
    const file = Buffer.from(header + lines[0] + bad + lines[2] + lines[3]);
    const offset = Buffer.byteLength(header + lines[0]);
    expect(() => readAll(file, 16)).toThrowError(DataDirectoryError);
    expect(() => readAll(file, 16)).toThrowError(`journal.1.log is corrupt at byte ${offset}`);
  });

  it('refuses a complete last line whose checksum fails as damage, not a torn write: file, offset and the way back', () => {
    const lines = changes.map(encodeLine);
    const last = lines[3] as string;
    // One byte of the last change flipped; its newline is there: it was written whole.
    const flipped = `${last.slice(0, 20)}${last[20] === '1' ? '2' : '1'}${last.slice(21)}`;
    const offset = Buffer.byteLength(header + lines.slice(0, 3).join(''));
    for (const chunk of [16, 1 << 20]) {
      const file = Buffer.from(header + lines.slice(0, 3).join('') + flipped);
      expect(() => readAll(file, chunk)).toThrowError(
        `the journal journal.1.log is corrupt at byte ${offset}: the last line, whole with its newline, does not match its checksum or is not JSON`,
      );
      expect(() => readAll(file, chunk)).toThrowError(
        `Restore the directory from a backup; or, to start from the changes before it (that line and everything after it are lost), stop every sandbox on the directory and cut the file there: truncate -s ${offset} 'journal.1.log'`,
      );
    }
  });

  it('names the file and the offset of a change the reader of changes refuses', () => {
    const lines = changes.map(encodeLine);
    const file = Buffer.from(
      header + lines[0] + encodeStep([lines[1]?.slice(9, -1) as string, '["zz","k"]']) + lines[2],
    );
    const offset = Buffer.byteLength(header + lines[0]);
    const refuse = (line: JournalLine) => {
      if (line[0] === ('zz' as never)) throw new TypeError('a change of unknown kind "zz"');
    };
    expect(() => readJournal(reader(file), '/d/journal.1.log', refuse, 16)).toThrowError(
      `the journal /d/journal.1.log holds a change at byte ${offset} that this version cannot apply (a change of unknown kind "zz")`,
    );
  });

  it('refuses a checksum that is not eight hex digits, even when its value would match', () => {
    const line = encodeLine(['o', 'key-a', 60]);
    const file = Buffer.from(
      `${header}${line.replace(/^[0-9a-f]{8}/, (hex) => hex.toUpperCase())}${line}`,
    );
    expect(() => readAll(file, 1 << 20)).toThrowError(/corrupt at byte/);
  });

  it('refuses a file with no header', () => {
    expect(() => readAll(Buffer.from(''), 16)).toThrowError(/has no header line/);
  });
});
