import { describe, expect, it } from 'vitest';
import { ACCT_V3_RECORD_BYTES, decodeCompT, readAcctV3 } from './acct.js';
import { cpuByTask, runTurbo } from './by-task.js';
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

describe('runTurbo', () => {
  // Two runs side by side (started in the same second, the second ends 100 s later), a turbo that
  // lived longer than both (another engineer's watch), and a test's own short turbo inside run A.
  const machine = readAcctV3(
    Buffer.concat(
      [
        { pid: 100, ppid: 1, start: T - 600, elapsed: 2000, ticks: 900, command: 'turbo' },
        { pid: 10, ppid: 5, start: T - 1, elapsed: 302, ticks: 100, command: 'turbo' },
        { pid: 20, ppid: 6, start: T - 1, elapsed: 402, ticks: 100, command: 'turbo' },
        // run A's task a#test (its package manager, then vitest), which starts turbo itself
        { pid: 11, ppid: 10, start: T, elapsed: 300, ticks: 50, command: 'npm test' },
        { pid: 12, ppid: 11, start: T + 1, elapsed: 298, ticks: 6000, command: 'node' },
        { pid: 13, ppid: 12, start: T + 50, elapsed: 5, ticks: 40, command: 'turbo' },
        { pid: 14, ppid: 13, start: T + 51, elapsed: 3, ticks: 200, command: 'node' },
        // run B's task a#test
        { pid: 21, ppid: 20, start: T, elapsed: 400, ticks: 60, command: 'npm test' },
        { pid: 22, ppid: 21, start: T + 1, elapsed: 398, ticks: 7000, command: 'node' },
        // the long turbo's own task
        { pid: 101, ppid: 100, start: T + 10, elapsed: 100, ticks: 5000, command: 'node' },
      ].map(encode),
    ),
  );
  const runA = [{ taskId: 'a#test', startMs: T * 1000, endMs: (T + 300) * 1000 }];
  const runB = [{ taskId: 'a#test', startMs: T * 1000 + 200, endMs: (T + 400) * 1000 }];

  it("picks the turbo whose start and end match the summary's, not the longest-lived", () => {
    expect(runTurbo(machine, runA).pid).toBe(10);
    expect(runTurbo(machine, runB).pid).toBe(20);
  });

  it('charges each of two parallel runs only with its own processes, a nested turbo included', () => {
    const a = cpuByTask(machine, runA);
    expect(a.tasks.map((task) => [task.taskId, task.cpuSeconds])).toEqual([['a#test', 62.9]]);
    expect(a.tasks[0]?.byCommand).toEqual({ 'npm test': 0.5, node: 62, turbo: 0.4 });
    expect(a.tasksSeconds).toBeCloseTo(62.9);
    const b = cpuByTask(machine, runB);
    expect(b.tasks.map((task) => [task.taskId, task.cpuSeconds])).toEqual([['a#test', 70.6]]);
    // outside run B: the three turbos themselves (9 + 1 + 1), run A (62.9), the long turbo's task (50)
    expect(b.unattributed.cpuSeconds).toBeCloseTo(9 + 1 + 1 + 62.9 + 50);
    expect(b.totalSeconds).toBeCloseTo(a.totalSeconds);
  });

  it('refuses a summary that no accounted turbo ran, naming the nearest', () => {
    const later = [{ taskId: 'a#test', startMs: (T + 5000) * 1000, endMs: (T + 5300) * 1000 }];
    expect(() => runTurbo(machine, later)).toThrow(
      /no turbo process ran the summarized tasks .* the nearest, pid \d+, is \d+ s off/,
    );
    expect(() => runTurbo([], runA)).toThrow('no turbo process in the accounting file');
    expect(() => runTurbo(machine, [])).toThrow('the turbo run summary has no tasks');
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
