import { describe, expect, it } from 'vitest';
import { ACCT_V3_RECORD_BYTES, decodeCompT, readAcctV3 } from './acct.js';
import { cpuByTask } from './by-task.js';
import { readTurboSummary } from './summary.js';

interface Fake {
  pid: number;
  ppid: number;
  start: number;
  elapsed: number;
  /** CPU in ticks (hundredths of a second), small enough for a comp_t without exponent. */
  ticks: number;
  command: string;
}

/** One acct v3 record as the kernel writes it. */
function encode(fake: Fake): Buffer {
  const record = Buffer.alloc(ACCT_V3_RECORD_BYTES);
  record.writeUInt8(3, 1);
  record.writeUInt32LE(fake.pid, 16);
  record.writeUInt32LE(fake.ppid, 20);
  record.writeUInt32LE(fake.start, 24);
  record.writeFloatLE(fake.elapsed * 100, 28);
  record.writeUInt16LE(fake.ticks - Math.floor(fake.ticks / 2), 32);
  record.writeUInt16LE(Math.floor(fake.ticks / 2), 34);
  record.write(fake.command, 48, 'latin1');
  return record;
}

const T = 1_800_000_000;

describe('readAcctV3', () => {
  it('decodes comp_t and every field of a record', () => {
    expect(decodeCompT(100)).toBe(100);
    expect(decodeCompT(0x2001)).toBe(8);
    expect(decodeCompT(0x4003)).toBe(192);
    const [record] = readAcctV3(
      encode({ pid: 42, ppid: 7, start: T, elapsed: 2.5, ticks: 150, command: 'npm install /tm' }),
    );
    expect(record).toEqual({
      pid: 42,
      ppid: 7,
      startSeconds: T,
      elapsedSeconds: 2.5,
      cpuSeconds: 1.5,
      command: 'npm install /tm',
    });
  });

  it('refuses a file that is not acct v3, naming the offset', () => {
    expect(() => readAcctV3(Buffer.alloc(65))).toThrow('65 bytes is not a whole number');
    const second = encode({ pid: 1, ppid: 0, start: T, elapsed: 1, ticks: 1, command: 'x' });
    second.writeUInt8(2, 1);
    const file = Buffer.concat([
      encode({ pid: 1, ppid: 0, start: T, elapsed: 1, ticks: 1, command: 'x' }),
      second,
    ]);
    expect(() => readAcctV3(file)).toThrow('not an acct v3 record at offset 64: version 2');
  });
});

describe('cpuByTask', () => {
  it('charges each process to the task whose root it descends from, a reused pid to its own parent, and an orphan to nobody', () => {
    const records = readAcctV3(
      Buffer.concat(
        [
          { pid: 20, ppid: 11, start: T + 1, elapsed: 5, ticks: 400, command: 'node' },
          { pid: 11, ppid: 10, start: T, elapsed: 9, ticks: 50, command: 'node' },
          { pid: 20, ppid: 13, start: T + 12, elapsed: 3, ticks: 300, command: 'tsc' },
          { pid: 13, ppid: 10, start: T + 10, elapsed: 10, ticks: 20, command: 'node' },
          { pid: 30, ppid: 1, start: T + 2, elapsed: 1, ticks: 70, command: 'chromium' },
          { pid: 10, ppid: 5, start: T - 1, elapsed: 30, ticks: 100, command: 'turbo' },
        ].map(encode),
      ),
    );
    const result = cpuByTask(records, [
      { taskId: 'a#build', startMs: T * 1000, endMs: (T + 9) * 1000 },
      { taskId: 'b#test', startMs: (T + 10) * 1000, endMs: (T + 20) * 1000 },
    ]);
    expect(result.tasks.map((task) => [task.taskId, task.cpuSeconds])).toEqual([
      ['a#build', 4.5],
      ['b#test', 3.2],
    ]);
    expect(result.tasks[1]?.byCommand).toEqual({ tsc: 3, node: 0.2 });
    // turbo itself and the orphan.
    expect(result.unattributed.cpuSeconds).toBeCloseTo(1.7);
    expect(result.totalSeconds).toBeCloseTo(9.4);
  });
});

describe('readTurboSummary', () => {
  it('reads each task and refuses a file without tasks or times', () => {
    const summary = {
      tasks: [{ taskId: 'x#test', execution: { startTime: 1, endTime: 2 } }],
    };
    expect(readTurboSummary(JSON.stringify(summary))).toEqual([
      { taskId: 'x#test', startMs: 1, endMs: 2 },
    ]);
    expect(() => readTurboSummary('{}')).toThrow('no "tasks" array');
    expect(() => readTurboSummary('{"tasks":[{"taskId":"x"}]}')).toThrow(
      'tasks[0] needs a taskId and execution.startTime/endTime',
    );
  });
});
