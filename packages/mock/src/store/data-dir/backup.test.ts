// The data directory's backup: whole lines only, checked, no LOCK; refusals name what is wrong; a copy that fails to write leaves nothing behind.
import * as fs from 'node:fs';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../../test-support/temporary-directory.js';
import { backupDataDirectory, type CopyFiles, writeCopy } from './backup.js';
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

/** An errno error as node:fs throws it. */
function errnoError(code: string, syscall: string, path?: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: injected, ${syscall}`);
  error.code = code;
  error.syscall = syscall;
  if (path !== undefined) error.path = path;
  return error;
}

/**
 * node:fs's calls, with the `nth` call of `step` failing with `code`; counts the descriptors
 * opened and closed.
 */
function failing(step: keyof CopyFiles, code: string, nth = 1) {
  const open = new Set<number>();
  let calls = 0;
  const fail = <Call extends (...args: never[]) => unknown>(name: keyof CopyFiles, call: Call) =>
    ((...args: Parameters<Call>) => {
      if (name === step && ++calls === nth) {
        const path = typeof args[0] === 'string' ? args[0] : undefined;
        throw errnoError(code, name.replace(/Sync$/, ''), path);
      }
      return call(...args);
    }) as unknown as Call;
  const files: CopyFiles = {
    mkdirSync: fail('mkdirSync', fs.mkdirSync),
    openSync: fail('openSync', ((...args: Parameters<typeof fs.openSync>) => {
      const fd = fs.openSync(...args);
      open.add(fd);
      return fd;
    }) as typeof fs.openSync),
    writeSync: fail('writeSync', fs.writeSync),
    fsyncSync: fail('fsyncSync', fs.fsyncSync),
    closeSync: fail('closeSync', ((fd: number) => {
      open.delete(fd);
      fs.closeSync(fd);
    }) as typeof fs.closeSync),
    renameSync: fail('renameSync', fs.renameSync),
  };
  return { files, open };
}

describe('writeCopy', () => {
  const content = Buffer.from(header + lines.join(''));

  it('writes the copy in place with no .tmp beside it', () => {
    const target = path('copy');
    const { files, open } = failing('renameSync', 'EIO', 2);
    expect(writeCopy(target, 'journal.3.log', content, files)).toBe(join(target, 'journal.3.log'));
    expect(readdirSync(target)).toEqual(['journal.3.log']);
    expect(readFileSync(join(target, 'journal.3.log'))).toEqual(content);
    expect(open.size).toBe(0);
  });

  // Each step of the write failing (as root, a read-only directory fails none of them).
  it.each([
    ['the target cannot be made', 'mkdirSync', 'ENOTDIR', 1],
    ['the .tmp file cannot be opened', 'openSync', 'EMFILE', 1],
    ['the disk is full', 'writeSync', 'ENOSPC', 1],
    ['the sync fails', 'fsyncSync', 'EIO', 1],
    ['the close fails', 'closeSync', 'EIO', 1],
    ['the rename fails', 'renameSync', 'EXDEV', 1],
  ] as const)('leaves nothing when %s (%s: %s)', (_, step, code, nth) => {
    for (const exists of [true, false]) {
      const target = path('copy');
      if (exists) mkdirSync(target);
      const { files, open } = failing(step, code, nth);
      let thrown: unknown;
      try {
        writeCopy(target, 'journal.3.log', content, files);
      } catch (error) {
        thrown = error;
      }
      expect((thrown as Error)?.name).toBe('DataDirectoryError');
      expect((thrown as Error).message).toMatch(
        new RegExp(
          `^cannot write the file ${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*${code}`,
        ),
      );
      // An empty target stays, empty; one this call made is gone.
      if (exists) expect(readdirSync(target)).toEqual([]);
      else expect(fs.existsSync(target)).toBe(false);
      expect(open.size).toBe(step === 'closeSync' ? 1 : 0);
      for (const fd of open) fs.closeSync(fd);
    }
  });
});
