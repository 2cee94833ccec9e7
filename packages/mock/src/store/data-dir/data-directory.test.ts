// The data directory across restarts: every answered change comes back, and bad directories are refused by name.
import {
  appendFileSync,
  ftruncateSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../../test-support/temporary-directory.js';
import { mockServerOf } from '../../app/mock-server.js';
import { createRuntime, DATA_DIRECTORY_WARNING } from '../../app/runtime.js';
import { createHarness, type Harness, manualClock } from '../../test-support/harness.js';
import { DataDirectory, DataDirectoryError, MIN_COMPACT_BYTES } from './data-directory.js';
import { changeJson, encodeLine, encodeStep } from './journal-file.js';
import { lockTextOf } from './lock.js';

const open: Harness[] = [];
const newDirectory = () => temporaryDirectory('psm-data-');

/** A sandbox on `dataDir`, on a clock the test moves (the same clock across restarts). */
function start(dataDir: string, clock = manualClock(), extra: Record<string, unknown> = {}) {
  const logs: string[] = [];
  const harness = createHarness({ dataDir, clock, logger: (line) => logs.push(line), ...extra });
  open.push(harness);
  return { harness, logs, clock };
}

afterEach(() => {
  for (const harness of open.splice(0)) harness.mock.close();
});

const created = (harness: Harness, key: string, capture = true) =>
  harness.call('POST', '/v1/payments', {
    body: {
      amount: 1500,
      currency: 'KZT',
      capture,
      payment_method: { type: 'token', token: 'tok_test_success' },
    },
    headers: { 'idempotency-key': key },
  });

describe('a sandbox with a data directory', () => {
  it('answers after a restart as before: payments, timelines, replays byte for byte, endpoints, faults, clock', async () => {
    const dataDir = newDirectory();
    const clock = manualClock();
    const first = start(dataDir, clock).harness;
    const createdAnswer = await created(first, 'order-1', false);
    const createdBody = await createdAnswer.text();
    const payment = JSON.parse(createdBody);
    const captured = await first.json('POST', `/v1/payments/${payment.id}/capture`, {
      body: { amount: 1000 },
      headers: { 'idempotency-key': 'capture-1' },
    });
    expect(captured.status).toBe(200);
    const endpoint = await first.json('POST', '/v1/webhook_endpoints', {
      body: { url: 'http://127.0.0.1:9/hooks' },
    });
    await first.json('PUT', '/_sandbox/faults', { body: { latency_ms: 5 } });
    await first.json('POST', '/_sandbox/clock/advance', { body: { seconds: 3600 } });
    const listed = await (await first.call('GET', '/v1/payments')).text();
    first.mock.close();

    const second = start(dataDir, clock).harness;
    const retrieved = await second.json('GET', `/v1/payments/${payment.id}`);
    expect(retrieved.body).toEqual(captured.body);
    expect(await (await second.call('GET', '/v1/payments')).text()).toBe(listed);
    const replay = await created(second, 'order-1', false);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(createdBody);
    const endpoints = await second.json('GET', '/v1/webhook_endpoints');
    expect(endpoints.body.data.map((e: { id: string }) => e.id)).toEqual([endpoint.body.id]);
    expect((await second.json('GET', '/_sandbox/faults')).body.latency_ms).toBe(5);
    expect((await second.json('GET', '/_sandbox/clock')).body.offset_seconds).toBe(3600);
    const inspector = await second.json('GET', '/_sandbox/inspector');
    const timeline = inspector.body.payments[0].timeline.map((s: { change: string }) => s.change);
    expect(timeline).toEqual(['created', 'captured']);
  });

  it('keeps a reset across a restart, and what came after it', async () => {
    const dataDir = newDirectory();
    const first = start(dataDir).harness;
    await created(first, 'a');
    await first.json('POST', '/_sandbox/reset');
    const after = await (await created(first, 'b')).json();
    first.mock.close();
    const second = start(dataDir).harness;
    const list = await second.json('GET', '/v1/payments');
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([after.id]);
  });

  it('sends after a restart a delivery that fell due while it was down, signed with the same secret', async () => {
    const dataDir = newDirectory();
    const clock = manualClock();
    const received: Array<{ url: string; id: string | null }> = [];
    let answer = 500;
    const webhookFetch = async (url: string, init: RequestInit) => {
      received.push({ url, id: new Headers(init.headers).get('webhook-id') });
      return new Response(null, { status: answer });
    };
    const first = start(dataDir, clock, { webhookFetch }).harness;
    await first.json('POST', '/v1/webhook_endpoints', {
      body: { url: 'http://shop.test/hooks' },
    });
    await created(first, 'k1');
    await first.mock.webhooksSettled();
    expect(received).toHaveLength(1); // the 500: a retry is queued 5 s ± 20 % later
    first.mock.close();

    answer = 204;
    clock.advance(60_000);
    const second = start(dataDir, clock, { webhookFetch }).harness;
    await second.mock.webhooksSettled();
    expect(received).toHaveLength(2);
    expect(received[1]?.id).toBe(received[0]?.id);
    const deliveries = await second.json('GET', '/_sandbox/webhook_deliveries');
    expect(deliveries.body.data.map((d: { status: number }) => d.status)).toEqual([204, 500]);
  });

  it('never writes the API key into the directory', async () => {
    const dataDir = newDirectory();
    const { harness } = start(dataDir);
    await created(harness, 'k');
    harness.mock.close();
    const files = readFileSync(join(dataDir, 'journal.1.log'), 'utf8');
    expect(files).not.toContain('sk_test_');
  });
});

describe('recording', () => {
  it('keeps no change while replaying: the store builds none until it is attached, nor after close', () => {
    const directory = DataDirectory.open(newDirectory());
    directory.replay(() => {});
    expect(directory.recording).toBe(false);
    directory.attach({ liveBytes: () => 0, dump: () => [] });
    expect(directory.recording).toBe(true);
    directory.close();
    expect(directory.recording).toBe(false);
  });
});

describe('the data directory refuses what it cannot use', () => {
  it('refuses a second process on the same directory, naming the holder', () => {
    const dataDir = newDirectory();
    const directory = DataDirectory.open(dataDir);
    try {
      // Our own pid counts as another holder when it is not ours to take: fake a live holder
      // (the parent process, with its start time, as a sandbox writes its lock).
      writeFileSync(join(dataDir, 'LOCK'), lockTextOf(process.ppid));
      expect(() => DataDirectory.open(dataDir)).toThrowError(
        new RegExp(`in use by another sandbox \\(pid ${process.ppid}`),
      );
    } finally {
      writeFileSync(join(dataDir, 'LOCK'), lockTextOf(process.pid));
      directory.close();
    }
  });

  it('takes over the lock of a process that died', () => {
    const dataDir = newDirectory();
    writeFileSync(join(dataDir, 'LOCK'), '2147483646\n');
    const directory = DataDirectory.open(dataDir);
    expect(readFileSync(join(dataDir, 'LOCK'), 'utf8').split('\n')[0]).toBe(String(process.pid));
    directory.close();
  });

  it('drops a torn last change with one warning naming the file and the offset', async () => {
    const dataDir = newDirectory();
    const first = start(dataDir).harness;
    const payment = await (await created(first, 'k')).json();
    first.mock.close();
    const journal = join(dataDir, 'journal.1.log');
    const size = readFileSync(journal).length;
    appendFileSync(journal, '0badc0de ["p","x",{"id":"pay_');
    const { harness, logs } = start(dataDir);
    expect(logs.filter((line) => line.includes('torn'))).toEqual([
      expect.stringContaining(`byte ${size} of ${journal}`),
    ]);
    expect((await harness.json('GET', `/v1/payments/${payment.id}`)).status).toBe(200);
    expect(readFileSync(journal).length).toBe(size);
  });

  it('drops the whole of a step cut short: a capture comes back with its Idempotency-Key record, or neither does', async () => {
    const dataDir = newDirectory();
    const first = start(dataDir).harness;
    const payment = await (await created(first, 'create', false)).json();
    const capture = () =>
      first.call('POST', `/v1/payments/${payment.id}/capture`, {
        headers: { 'idempotency-key': 'capture' },
      });
    expect((await capture()).status).toBe(200);
    first.mock.close();
    // The capture's step is the journal's last line: the payment and its record, as one group.
    const journal = join(dataDir, 'journal.1.log');
    const text = readFileSync(journal, 'utf8');
    const last = text.lastIndexOf('\n', text.length - 2) + 1;
    expect(text.slice(last + 9, last + 20)).toBe('["g",[["p",');
    expect(text.slice(last)).toContain('["i",');
    // kill -9 stopped its write between two pages: the first half is on disk.
    writeFileSync(journal, text.slice(0, last + Math.floor((text.length - last) / 2)));
    const { harness, logs } = start(dataDir);
    expect(logs.filter((line) => line.includes('torn'))).toHaveLength(1);
    expect((await harness.json('GET', `/v1/payments/${payment.id}`)).body.status).toBe(
      'AUTHORIZED',
    );
    // Sent again with its key, the capture runs now (never a 409 for a capture kept without it).
    const again = await harness.call('POST', `/v1/payments/${payment.id}/capture`, {
      headers: { 'idempotency-key': 'capture' },
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('warns of a torn last line on the process when no logger is set (the CLI with --quiet)', async () => {
    const dataDir = newDirectory();
    start(dataDir).harness.mock.close();
    const journal = join(dataDir, 'journal.1.log');
    appendFileSync(journal, '0badc0de ["p","x"');
    const warnings: Error[] = [];
    const listen = (warning: Error) => warnings.push(warning);
    process.on('warning', listen);
    try {
      createRuntime({ dataDir }).close();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listen);
    }
    expect(warnings.map((warning) => [warning.name, warning.message])).toEqual([
      [DATA_DIRECTORY_WARNING, expect.stringContaining('torn last change at byte')],
    ]);
    expect(warnings[0]?.message).toContain(journal);
  });

  it('refuses a journal corrupt before its end, naming the file and the offset', async () => {
    const dataDir = newDirectory();
    const first = start(dataDir).harness;
    await created(first, 'k1');
    await created(first, 'k2');
    first.mock.close();
    const journal = join(dataDir, 'journal.1.log');
    const text = readFileSync(journal, 'utf8');
    const offset = text.indexOf('\n') + 1 + 12;
    writeFileSync(journal, `${text.slice(0, offset)}X${text.slice(offset + 1)}`);
    const lineStart = text.indexOf('\n') + 1;
    expect(() => start(dataDir)).toThrowError(
      `the journal ${journal} is corrupt at byte ${lineStart}`,
    );
  });

  it('refuses a change of an unknown kind, or with wrong types, naming the file and its offset, leaving the journal as it was', async () => {
    for (const bad of [
      ['zz', 'key'],
      ['p', null, 'pay_x'],
      ['e-', 7],
    ]) {
      const dataDir = newDirectory();
      const first = start(dataDir).harness;
      await created(first, 'k1');
      first.mock.close();
      const journal = join(dataDir, 'journal.1.log');
      const before = readFileSync(journal, 'utf8');
      // A line with a right checksum, as another program or a bug could write it.
      appendFileSync(journal, `${encodeLine(bad as never)}${encodeLine(['o', 'key', 5])}`);
      let message = '';
      try {
        start(dataDir);
      } catch (error) {
        expect(error).toBeInstanceOf(DataDirectoryError);
        message = (error as Error).message;
      }
      expect(message).toContain(
        typeof bad[1] !== 'string'
          ? `the journal ${journal} holds a line that is not a change at byte ${Buffer.byteLength(before)}`
          : `the journal ${journal} holds a change at byte ${Buffer.byteLength(before)} that this version cannot apply (`,
      );
      expect(message).toContain(`truncate -s ${Buffer.byteLength(before)} '${journal}'`);
      if (bad[0] === 'zz') expect(message).toContain('a change of unknown kind "zz"');
      expect(readFileSync(journal, 'utf8').startsWith(before)).toBe(true);
    }
  });

  it('refuses a journal that is a directory, naming it', () => {
    const dataDir = newDirectory();
    mkdirSync(join(dataDir, 'journal.1.log'));
    expect(() => start(dataDir)).toThrowError(
      `${join(dataDir, 'journal.1.log')} is not a file (a directory, or something else named as a journal)`,
    );
    // Refused whole: the lock was released.
    expect(readdirSync(dataDir)).toEqual(['journal.1.log']);
  });

  it('refuses a directory written by a newer format, and one that is not ours', () => {
    const newer = newDirectory();
    writeFileSync(
      join(newer, 'journal.1.log'),
      encodeLine({ format: 'payment-service-mock-journal', version: 99, generation: 1 }),
    );
    expect(() => DataDirectory.open(newer)).toThrowError(
      /newer version of the sandbox \(journal format 99/,
    );
    const foreign = newDirectory();
    writeFileSync(join(foreign, 'journal.1.log'), `${'0'.repeat(8)} {}\n`);
    expect(() => DataDirectory.open(foreign)).toThrowError(DataDirectoryError);
  });

  it('refuses a path it cannot create, naming it', () => {
    const parent = newDirectory();
    writeFileSync(join(parent, 'file'), 'x');
    const path = join(parent, 'file', 'data');
    expect(() => DataDirectory.open(path)).toThrowError(`cannot create the data directory ${path}`);
  });
});

describe('a write the disk cut short', () => {
  it('is taken back, and the next change starts where it was cut (a new journal too)', () => {
    const dataDir = newDirectory();
    const directory = DataDirectory.open(dataDir);
    directory.attach({ liveBytes: () => 0, dump: () => [] });
    directory.write(['o', 'key-a', 60]);
    expect(directory.flush()).toBe(true);
    const whole = readFileSync(directory.journalPath).length;
    // What refused() does after a full disk took part of a line: the part is cut off again.
    const fd = (directory as unknown as { fd: number }).fd;
    writeSync(fd, '0badc0de ["o","key-');
    ftruncateSync(fd, whole);
    directory.write(['o', 'key-b', 120]);
    expect(directory.flush()).toBe(true);
    directory.close();
    expect(readFileSync(join(dataDir, 'journal.1.log')).indexOf(0)).toBe(-1);
    const reopened = DataDirectory.open(dataDir);
    const lines: unknown[] = [];
    reopened.replay((line) => lines.push(line));
    expect(lines).toEqual([
      ['o', 'key-a', 60],
      ['o', 'key-b', 120],
    ]);
    reopened.close();
  });
});

describe('syncing', () => {
  it('closes with a background fdatasync in flight: everything written is kept, no descriptor error', async () => {
    const dataDir = newDirectory();
    const directory = DataDirectory.open(dataDir);
    directory.attach({ liveBytes: () => 0, dump: () => [] });
    directory.write(['o', 'key-a', 60]);
    expect(directory.flush()).toBe(true);
    (directory as unknown as { syncInBackground(): void }).syncInBackground();
    directory.write(['o', 'key-b', 120]);
    directory.close();
    await new Promise((resolve) => setImmediate(resolve));
    const reopened = DataDirectory.open(dataDir);
    const lines: unknown[] = [];
    reopened.replay((line) => lines.push(line));
    expect(lines).toEqual([
      ['o', 'key-a', 60],
      ['o', 'key-b', 120],
    ]);
    reopened.close();
  });
});

describe('compaction', () => {
  it('frees on disk what a reset deleted, and starts again from the compacted journal', async () => {
    const dataDir = newDirectory();
    const clock = manualClock();
    const runtime = createRuntime({ dataDir, clock });
    const mock = mockServerOf(runtime);
    const call = (path: string, key: string, body?: unknown, method = 'POST') =>
      mock.fetch(
        new Request(`http://sandbox.test${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: body === undefined ? null : JSON.stringify(body),
        }),
      );
    const payment = {
      amount: 100,
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_success' },
    };
    for (let index = 0; index < 200; index++)
      await call('/v1/payments', 'sk_test_compaction_gone', payment);
    await call('/_sandbox/reset', 'sk_test_compaction_gone');
    const kept = (await (
      await call('/v1/payments', 'sk_test_compaction_kept', payment)
    ).json()) as { id: string };
    const directory = runtime.dataDirectory as DataDirectory;
    const before = directory.bytes;
    expect(directory.compact()).toBe(true);
    expect(directory.bytes).toBeLessThan(before / 20);
    expect(directory.journalPath).toBe(join(dataDir, 'journal.2.log'));
    expect(readdirSync(dataDir).sort()).toEqual(['LOCK', 'journal.2.log']);
    await call('/v1/payments', 'sk_test_compaction_kept', payment);
    mock.close();

    const second = start(dataDir, clock).harness;
    const list = await second.json('GET', '/v1/payments', { apiKey: 'sk_test_compaction_kept' });
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data[1].id).toBe(kept.id);
    expect(
      (await second.json('GET', '/v1/payments', { apiKey: 'sk_test_compaction_gone' })).body.data,
    ).toEqual([]);
  });

  it('compacts at start-up a journal of 16 MiB or more that is over twice the live data, not only once it doubled again', () => {
    const dataDir = newDirectory();
    const keyId = 'k'.repeat(22);
    // One key's clock offset changed over and over: 17 MiB of journal, one number of live data.
    const header = encodeLine({
      format: 'payment-service-mock-journal',
      version: 1,
      generation: 1,
    });
    const group = encodeStep(
      Array.from({ length: 4000 }, (_, index) => changeJson(['o', keyId, index])),
    );
    const lines = Math.ceil((MIN_COMPACT_BYTES + (1 << 20)) / group.length);
    writeFileSync(join(dataDir, 'journal.1.log'), header + group.repeat(lines));
    const { logs } = start(dataDir);
    expect(readdirSync(dataDir).sort()).toEqual(['LOCK', 'journal.2.log']);
    const compacted = readFileSync(join(dataDir, 'journal.2.log'), 'utf8');
    expect(compacted.length).toBeLessThan(200);
    expect(compacted).toContain(`["o","${keyId}",3999]`);
    expect(logs).toEqual([
      expect.stringMatching(
        /compacted .*journal\.2\.log at start-up \(\d+ bytes, mostly data no longer live, now \d+\)/,
      ),
    ]);
  });

  it('leaves at start-up a journal under 16 MiB, or one mostly live, as it is', async () => {
    const dataDir = newDirectory();
    const first = start(dataDir).harness;
    for (let index = 0; index < 5; index++) await created(first, `k${index}`);
    first.mock.close();
    start(dataDir);
    expect(readdirSync(dataDir).sort()).toEqual(['LOCK', 'journal.1.log']);
  });

  it("writes a create's answer once (it names its payment), and replays it byte for byte after the payment changed, compacted or not", async () => {
    const dataDir = newDirectory();
    const clock = manualClock();
    const first = start(dataDir, clock).harness;
    const answer = await created(first, 'order-1', false);
    const body = await answer.text();
    const { id } = JSON.parse(body) as { id: string };
    const journal = readFileSync(join(dataDir, 'journal.1.log'), 'utf8');
    expect(journal.split(`{\\"id\\":\\"${id}\\"`)).toHaveLength(2);
    expect(journal).toContain(`"${id}"]`);
    expect((await first.call('POST', `/v1/payments/${id}/capture`, { body: {} })).status).toBe(200);
    const replayed = async (sandbox: Harness) => {
      const replay = await created(sandbox, 'order-1', false);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      return replay.text();
    };
    expect(await replayed(first)).toBe(body);
    first.mock.close();
    expect(await replayed(start(dataDir, clock).harness)).toBe(body);
    for (const harness of open.splice(0)) harness.mock.close();

    const runtime = createRuntime({ dataDir, clock });
    expect((runtime.dataDirectory as DataDirectory).compact()).toBe(true);
    mockServerOf(runtime).close();
    const compacted = start(dataDir, clock).harness;
    expect(await replayed(compacted)).toBe(body);
    expect((await compacted.json('GET', `/v1/payments/${id}`)).body.status).toBe('SUCCEEDED');
  });
});
