// The data directory's promises across kill -9, for real on the CLI: what was answered comes back, webhooks resume, the lock holds, bad files are named.
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyWebhook } from '@payment-service/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { type Answer, call, paymentBody } from '../http.js';
import { type Receiver, startReceiver } from '../receiver.js';
import type { Sandbox } from '../sandbox.js';
import { journalOf, runUntilExit, startOnDataDir } from './data-dir-sandbox.js';

const KEY = 'sk_test_crash_restart_0123456789';
const running: Sandbox[] = [];
const receivers: Receiver[] = [];

/** Starts the bin on `dataDir`, stopped (kill -9) after the test if still running. */
async function start(dataDir: string, flags: string[] = []): Promise<Sandbox> {
  const sandbox = await startOnDataDir(dataDir, flags);
  running.push(sandbox);
  return sandbox;
}

async function receiver(mode: 'answer' | 'hang'): Promise<Receiver> {
  const started = await startReceiver(mode);
  receivers.push(started);
  return started;
}

afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.kill9();
  for (const started of receivers.splice(0)) await started.close();
});

const create = (url: string, idempotencyKey: string, capture = true): Promise<Answer> =>
  call(url, { path: '/v1/payments', key: KEY, idempotencyKey, body: paymentBody(2500, capture) });

/** The key's delivery log, newest first. */
async function deliveries(url: string): Promise<Array<Record<string, unknown>>> {
  const answer = await call(url, { path: '/_sandbox/webhook_deliveries', key: KEY });
  return (answer.json?.data ?? []) as Array<Record<string, unknown>>;
}

/** Polls the delivery log (each read is answered only once it is stored) until `predicate` holds. */
async function untilDeliveries(
  url: string,
  predicate: (log: Array<Record<string, unknown>>) => boolean,
): Promise<Array<Record<string, unknown>>> {
  for (;;) {
    const log = await deliveries(url);
    if (predicate(log)) return log;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('kill -9, then a restart on the same data directory', () => {
  it('answers as before: payments, replays byte for byte, the endpoint and its secret; due deliveries go out after the start', async () => {
    const dataDir = temporaryDirectory('psm-crash-');
    const failing = await receiver('answer');
    failing.status = 500;
    const hanging = await receiver('hang');
    const first = await start(dataDir);
    // A receiver on 127.0.0.1 is allowed as is: the CLI listens on loopback (no flag needed).
    const retried = await call(first.url, {
      path: '/v1/webhook_endpoints',
      key: KEY,
      body: { url: `${failing.url}/retried` },
    });
    const cut = await call(first.url, {
      path: '/v1/webhook_endpoints',
      key: KEY,
      body: { url: `${hanging.url}/cut` },
    });
    expect([retried.status, cut.status]).toEqual([201, 201]);
    const captured = await create(first.url, 'order-1');
    const authorized = await create(first.url, 'order-2', false);
    const payments = [captured, authorized].map((answer) => answer.json?.id as string);
    // Each event's first attempt: a 500 from one endpoint (a retry is queued 4-6 s later on the
    // key's clock), and one left hanging by the other when the process dies.
    await untilDeliveries(
      first.url,
      (log) =>
        log.filter((entry) => entry.status === 500 && entry.next_retry_at !== null).length === 2,
    );
    await hanging.until(() => hanging.received.length === 2);
    await first.kill9();

    failing.status = 200;
    const second = await start(dataDir);
    for (const [index, answer] of [captured, authorized].entries()) {
      const retrieved = await call(second.url, {
        path: `/v1/payments/${payments[index]}`,
        key: KEY,
      });
      expect(retrieved.text).toBe(answer.text);
      const replay = await create(second.url, `order-${index + 1}`, index === 0);
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.text).toBe(answer.text);
    }
    const listed = await call(second.url, { path: '/v1/webhook_endpoints', key: KEY });
    expect(
      ((listed.json?.data ?? []) as Array<{ id: string }>).map((endpoint) => endpoint.id),
    ).toEqual([retried.json?.id, cut.json?.id]);

    // The attempts cut by the kill were due while it was down: they go out after the start,
    // with nothing asked of the sandbox, signed with the secret answered before the kill.
    await hanging.until(() => hanging.received.length === 4);
    const [before, after] = [hanging.received.slice(0, 2), hanging.received.slice(2)];
    expect(after.map((delivery) => delivery.headers['webhook-id']).sort()).toEqual(
      before.map((delivery) => delivery.headers['webhook-id']).sort(),
    );
    for (const delivery of after) {
      await verifyWebhook(delivery.raw, delivery.headers, cut.json?.secret as `whsec_${string}`);
    }

    // The retries of the 500s are due 4-6 s after them on the key's clock: moved past, they go out.
    const moved = await call(second.url, {
      path: '/_sandbox/clock/advance',
      key: KEY,
      body: { seconds: 10 },
    });
    expect(moved.status).toBe(200);
    await failing.until(() => failing.received.length === 4);
    const [failed, sent] = [failing.received.slice(0, 2), failing.received.slice(2)];
    expect(sent.map((delivery) => delivery.headers['webhook-id']).sort()).toEqual(
      failed.map((delivery) => delivery.headers['webhook-id']).sort(),
    );
    for (const delivery of sent) {
      const event = await verifyWebhook(
        delivery.raw,
        delivery.headers,
        retried.json?.secret as `whsec_${string}`,
      );
      expect(payments).toContain(event.data.object.id);
    }
    const log = await untilDeliveries(
      second.url,
      (entries) => entries.filter((entry) => entry.status === 200).length === 2,
    );
    const retriedLog = log.filter((entry) => entry.endpoint_id === retried.json?.id);
    expect(retriedLog.map((entry) => [entry.attempt, entry.status])).toEqual([
      [2, 200],
      [2, 200],
      [1, 500],
      [1, 500],
    ]);
  });
});

describe('one process per data directory', () => {
  it('refuses a second process by the lock, and a new one takes over the lock of a killed one', async () => {
    const dataDir = temporaryDirectory('psm-crash-');
    const first = await start(dataDir, ['--quiet']);
    const payment = await create(first.url, 'kept');
    const refused = await runUntilExit(dataDir, ['--quiet']);
    expect(refused.code).not.toBe(0);
    expect(refused.signal).toBeNull();
    expect(refused.output).toContain(
      `the data directory ${dataDir} is in use by another sandbox (pid ${first.pid}, lock file ${join(dataDir, 'LOCK')})`,
    );
    expect(first.alive()).toBe(true);

    await first.kill9();
    expect(readFileSync(join(dataDir, 'LOCK'), 'utf8').split('\n')[0]).toBe(String(first.pid));
    const second = await start(dataDir, ['--quiet']);
    expect(readFileSync(join(dataDir, 'LOCK'), 'utf8').split('\n')[0]).toBe(String(second.pid));
    const retrieved = await call(second.url, {
      path: `/v1/payments/${payment.json?.id}`,
      key: KEY,
    });
    expect(retrieved.text).toBe(payment.text);
  });
});

describe('bad input in the directory', () => {
  it.each([
    ['logging requests', []],
    ['with --quiet', ['--quiet']],
  ])(
    'drops a torn last line with one warning naming the file, and starts (%s)',
    async (_, flags) => {
      const dataDir = temporaryDirectory('psm-crash-');
      const first = await start(dataDir, flags);
      const payment = await create(first.url, 'before-the-tear');
      await first.kill9();
      const journal = journalOf(dataDir);
      const size = statSync(journal).size;
      // Half of a real line, as a crash in the middle of a write leaves it.
      const lines = readFileSync(journal, 'utf8').split('\n');
      const whole = lines[lines.length - 2] as string;
      appendFileSync(journal, whole.slice(0, Math.floor(whole.length / 2)));

      const second = await start(dataDir, flags);
      const retrieved = await call(second.url, {
        path: `/v1/payments/${payment.json?.id}`,
        key: KEY,
      });
      expect(retrieved.text).toBe(payment.text);
      const warnings = second
        .output()
        .split('\n')
        .filter((line) => /torn/i.test(line));
      expect(warnings).toEqual([expect.stringContaining(`byte ${size} of ${journal}`)]);
      await second.untilOutput((output) => output.includes('torn'));
      expect(statSync(journal).size).toBe(size);
    },
  );

  it('refuses a whole last line whose checksum fails (an answered create, one byte flipped), naming the file and the offset; the way back it gives works', async () => {
    const dataDir = temporaryDirectory('psm-crash-');
    const first = await start(dataDir, ['--quiet']);
    const kept = await create(first.url, 'kept');
    const flippedCreate = await create(first.url, 'answered');
    expect(flippedCreate.status).toBe(201);
    await first.kill9();
    const journal = journalOf(dataDir);
    const content = readFileSync(journal);
    // A byte inside the last line flipped; its newline is there: it was written whole.
    expect(content[content.length - 1]).toBe(10);
    const last = content.lastIndexOf(10, content.length - 2) + 1;
    content[last + 20] = (content[last + 20] as number) ^ 0x01;
    writeFileSync(journal, content);

    const refused = await runUntilExit(dataDir, ['--quiet']);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain(`the journal ${journal} is corrupt at byte ${last}`);
    expect(refused.output).not.toMatch(/torn/);
    const way = `truncate -s ${last} '${journal}'`;
    expect(refused.output).toContain(way);
    expect(readFileSync(journal)).toEqual(content);

    // Following the message: the journal cut there, the sandbox starts with what came before.
    expect(spawnSync('sh', ['-c', way]).status).toBe(0);
    const second = await start(dataDir, ['--quiet']);
    const listed = await call(second.url, { path: '/v1/payments', key: KEY });
    const ids = ((listed.json?.data ?? []) as Array<{ id: string }>).map((payment) => payment.id);
    expect(ids).toEqual([kept.json?.id]);
    await second.kill9();
  });

  it('says a journal it may not read is a permission problem, not a port one', async () => {
    const dataDir = temporaryDirectory('psm-crash-');
    const first = await start(dataDir, ['--quiet']);
    await create(first.url, 'kept');
    await first.kill9();
    const journal = journalOf(dataDir);
    rmSync(join(dataDir, 'LOCK'));
    // Run as another user: root's files 0600 in a directory anyone may write.
    const asRoot = process.getuid?.() === 0;
    chmodSync(dataDir, 0o777);
    if (!asRoot) chmodSync(journal, 0o000);
    const refused = await runUntilExit(
      dataDir,
      ['--quiet'],
      asRoot ? { uid: 65534, gid: 65534 } : {},
    );
    chmodSync(journal, 0o600);
    expect(refused.code).not.toBe(0);
    expect(refused.output).not.toContain('needs privileges');
    expect(refused.output).toContain(`${journal}: permission denied`);
    expect(refused.output).toContain('run the sandbox as their owner');
  });

  it('refuses a journal corrupt before its end, naming the file and the offset', async () => {
    const dataDir = temporaryDirectory('psm-crash-');
    const first = await start(dataDir, ['--quiet']);
    for (const key of ['one', 'two', 'three']) await create(first.url, key);
    await first.kill9();
    const journal = journalOf(dataDir);
    const content = readFileSync(journal);
    // A byte in the middle of the second change (not the last line) flipped.
    const header = content.indexOf(10) + 1;
    const second = content.indexOf(10, header) + 1;
    const flipped = second + 20;
    content[flipped] = (content[flipped] as number) ^ 0x01;
    writeFileSync(journal, content);

    const refused = await runUntilExit(dataDir, ['--quiet']);
    expect(refused.code).not.toBe(0);
    expect(refused.signal).toBeNull();
    expect(refused.output).toContain(`the journal ${journal} is corrupt at byte ${second}`);
    // Refused, the directory is left as it was for whoever repairs it.
    expect(readFileSync(journal)).toEqual(content);
  });
});
