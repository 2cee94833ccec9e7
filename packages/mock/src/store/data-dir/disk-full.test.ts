// A data directory the disk refuses (ENOSPC from /dev/full): 503 store_unavailable, no event announces what is not stored, and all resumes once it is.
import { closeSync, openSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../../test-support/temporary-directory.js';
import { mockServerOf } from '../../app/mock-server.js';
import { createRuntime } from '../../app/runtime.js';
import { manualClock } from '../../test-support/harness.js';
import type { DataDirectory } from './data-directory.js';

const KEY = 'sk_test_disk_full_0001';
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A sandbox on a data directory whose journal writes can be sent to /dev/full (ENOSPC). */
function sandbox() {
  const dataDir = temporaryDirectory('psm-full-');
  const sent: Array<{ url: string; body: string }> = [];
  const logs: string[] = [];
  const runtime = createRuntime({
    dataDir,
    clock: manualClock(),
    logger: (line) => logs.push(line),
    webhookFetch: async (url, init) => {
      sent.push({ url, body: String(init.body) });
      return new Response(null, { status: 204 });
    },
  });
  const mock = mockServerOf(runtime);
  const directory = runtime.dataDirectory as DataDirectory;
  // The journal's descriptor, swapped for one on /dev/full: every write fails with ENOSPC.
  const journal = directory as unknown as { fd: number };
  const own = journal.fd;
  const full = openSync('/dev/full', 'w');
  closers.push(() => {
    journal.fd = own;
    mock.close();
    closeSync(full);
  });
  const call = (method: string, path: string, body?: unknown, idempotencyKey?: string) =>
    mock.fetch(
      new Request(`http://sandbox.test${path}`, {
        method,
        headers: {
          authorization: `Bearer ${KEY}`,
          'content-type': 'application/json',
          ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
        },
        body: body === undefined ? null : JSON.stringify(body),
      }),
    );
  return {
    mock,
    directory,
    sent,
    logs,
    call,
    fill: () => {
      journal.fd = full;
    },
    free: () => {
      journal.fd = own;
    },
  };
}

const payment = {
  amount: 700,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_success' },
};

describe.skipIf(process.platform !== 'linux')('a full disk under the data directory', () => {
  it('answers 503 store_unavailable with Retry-After, sends no event for the change, and resumes when space returns', async () => {
    const { mock, directory, sent, logs, call, fill, free } = sandbox();
    await call('POST', '/v1/webhook_endpoints', { url: 'http://shop.test/hooks' });
    await call('POST', '/v1/payments', payment, 'before');
    await mock.webhooksSettled();
    expect(sent).toHaveLength(1);
    const stored = readFileSync(directory.journalPath);

    fill();
    const refused = await call('POST', '/v1/payments', payment, 'during');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { code: string }).code).toBe('store_unavailable');
    expect(directory.failure).toBe('ENOSPC');
    // Every request is refused while the change waits for the disk, reads included.
    expect((await call('GET', '/v1/payments')).status).toBe(503);
    await mock.webhooksSettled();
    // The change is not on disk (a crash now loses it): no event may announce it.
    expect(sent).toHaveLength(1);
    expect(logs.filter((line) => line.includes('cannot write'))).toHaveLength(1);

    free();
    const list = await call('GET', '/v1/payments');
    expect(list.status).toBe(200);
    expect(readFileSync(directory.journalPath).subarray(0, stored.length)).toEqual(stored);
    // Stored now: its event goes out, and a retry with the same key gets its answer.
    await mock.webhooksSettled();
    expect(sent).toHaveLength(2);
    const retried = await call('POST', '/v1/payments', payment, 'during');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(JSON.parse(sent[1]?.body as string).data.object.id).toBe(
      ((await retried.json()) as { id: string }).id,
    );
    expect(logs.filter((line) => line.includes('go through again'))).toHaveLength(1);
  });
});
