// The data directory's backup: whole lines only, checked, no LOCK; refusals name what is wrong.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../../test-support/temporary-directory.js';
import { backupDataDirectory } from './backup.js';
import { DataDirectory } from './data-directory.js';
import { encodeLine } from './journal-file.js';

const root = temporaryDirectory('psm-backup-');
let counter = 0;
const path = (name: string) => join(root, `${name}-${counter++}`);

const header = encodeLine({ format: 'payment-service-mock-journal', version: 1, generation: 3 });
const lines = [encodeLine(['o', 'key-a', 60]), encodeLine(['o', 'key-b', 5])];

describe('backupDataDirectory', () => {
  it('copies the whole lines of the newest journal, leaves out a write in progress, and writes no LOCK', () => {
    const source = path('source');
    mkdirSync(source);
    writeFileSync(join(source, 'journal.2.log'), 'an older generation, deleted at the next start');
    writeFileSync(join(source, 'journal.3.log'), header + lines.join(''));
    writeFileSync(join(source, 'LOCK'), `${process.pid}\n`);
    // A step being written now: no newline yet.
    appendFileSync(join(source, 'journal.3.log'), '0badc0de ["o","key-c"');
    const target = path('target');
    const backup = backupDataDirectory(source, target);
    expect(backup).toEqual({
      file: join(target, 'journal.3.log'),
      bytes: Buffer.byteLength(header + lines.join('')),
      changes: 2,
    });
    expect(readdirSync(target)).toEqual(['journal.3.log']);
    expect(readFileSync(backup.file, 'utf8')).toBe(header + lines.join(''));
    // A sandbox opens it at once (no LOCK to delete) and reads both changes.
    const opened = DataDirectory.open(target);
    const read: unknown[] = [];
    expect(opened.replay((line) => read.push(line))).toBe(2);
    opened.close();
    expect(read).toEqual([
      ['o', 'key-a', 60],
      ['o', 'key-b', 5],
    ]);
  });

  it('refuses a target that is not empty, a source with no journal, and a damaged source, naming them', () => {
    const source = path('source');
    mkdirSync(source);
    const full = path('full');
    mkdirSync(full);
    writeFileSync(join(full, 'something'), '');
    expect(() => backupDataDirectory(source, full)).toThrowError(
      `the backup's directory ${full} exists and is not empty`,
    );
    expect(() => backupDataDirectory(source, path('target'))).toThrowError(
      `${source} holds no journal (journal.N.log): it is not a sandbox's data directory.`,
    );
    const damaged = `${lines[0]}${lines[1]?.replace('key-b', 'key-x')}`;
    writeFileSync(join(source, 'journal.1.log'), header + damaged);
    const target = path('target');
    expect(() => backupDataDirectory(source, target)).toThrowError(
      `the journal ${join(source, 'journal.1.log')} is corrupt at byte ${Buffer.byteLength(header + lines[0])}`,
    );
    expect(() => readdirSync(target)).toThrowError(/ENOENT/);
  });
});
