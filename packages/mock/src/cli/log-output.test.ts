// The CLI's outputs as safe log sinks: a failing stream never throws or emits, its lines are counted, the first drop reported once.
import { EventEmitter } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type LogDrops, MAX_PENDING_LOG_BYTES, safeOutput } from './log-output.js';

/** A stream like a pipe whose reader went away: each write fails (EPIPE) in its callback and as an 'error' event. */
class ClosedPipe extends EventEmitter {
  writableLength = 0;
  written: string[] = [];
  fail = true;
  write(chunk: string, callback?: (error?: Error | null) => void) {
    if (!this.fail) {
      this.written.push(chunk);
      callback?.(null);
      return true;
    }
    const error = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    callback?.(error);
    this.emit('error', error);
    return false;
  }
}

const newDrops = (): LogDrops => ({ droppedLines: 0, lastError: undefined });

describe('safeOutput', () => {
  it('counts the lines of failed writes, reports the first once, and tells the log what it lost when writes go through again', () => {
    const pipe = new ClosedPipe();
    const drops = newDrops();
    const reports: string[] = [];
    const out = safeOutput(pipe, { name: 'stdout', drops, report: (m) => reports.push(m) });
    expect(() => out.write('one\ntwo\n')).not.toThrow();
    out.write('three\n');
    expect(drops).toEqual({ droppedLines: 3, lastError: 'EPIPE' });
    expect(reports).toEqual([
      expect.stringContaining(
        'cannot write the log to stdout (EPIPE); its lines are dropped and counted',
      ),
    ]);
    pipe.fail = false;
    out.write('four\n');
    expect(pipe.written).toEqual([
      'payment-service-mock: 3 log lines dropped (EPIPE) before this one\nfour\n',
    ]);
    out.write('five\n');
    expect(pipe.written[1]).toBe('five\n');
    expect(reports).toHaveLength(1);
  });

  it('drops lines while a reader is more than 1 MiB behind, instead of holding them', () => {
    const pipe = new ClosedPipe();
    pipe.fail = false;
    pipe.writableLength = MAX_PENDING_LOG_BYTES + 1;
    const drops = newDrops();
    const out = safeOutput(pipe, { name: 'stderr', drops, report: () => {} });
    out.write('a\nb\n');
    expect(pipe.written).toEqual([]);
    expect(drops.droppedLines).toBe(2);
    expect(drops.lastError).toBe('its reader is more than 1 MiB behind');
  });

  it.skipIf(process.platform !== 'linux')(
    'writes /dev/full in place: every line dropped as ENOSPC, nothing thrown',
    () => {
      const fd = openSync('/dev/full', 'w');
      try {
        const drops = newDrops();
        const reports: string[] = [];
        const device = Object.assign(new EventEmitter(), { fd, write: () => true });
        const out = safeOutput(device, { name: 'stdout', drops, report: (m) => reports.push(m) });
        for (let index = 0; index < 5; index++) out.write(`line ${index}\n`);
        expect(drops).toEqual({ droppedLines: 5, lastError: 'ENOSPC' });
        expect(reports).toHaveLength(1);
      } finally {
        closeSync(fd);
      }
    },
  );
});
