// What the data directory journals, and in what order, for one scenario that makes every kind of change.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../../test-support/temporary-directory.js';
import { mockServerOf } from '../../app/mock-server.js';
import { createRuntime } from '../../app/runtime.js';
import { manualClock } from '../../test-support/harness.js';
import type { DataDirectory } from './data-directory.js';

const KEY_A = 'sk_test_journal_order_a';
const KEY_B = 'sk_test_journal_order_b';
const card = (token = 'tok_test_success') => ({ type: 'token', token });

/** Runs the scenario on a new data directory; returns each journal's text as it was written. */
async function scenario(): Promise<string[]> {
  const dataDir = temporaryDirectory('psm-order-');
  const clock = manualClock();
  // Each address answers by how often it was called, whatever the order the attempts come in.
  const answers: Record<string, number[]> = {
    'http://shop.test/hooks': [500, 410],
    'http://shop.test/failed': [204],
  };
  const webhookFetch = async (url: string) => {
    const status = answers[url]?.shift() ?? 500;
    return new Response(status === 204 ? null : 'ok', { status });
  };
  const journals: string[] = [];
  const open = () => {
    const runtime = createRuntime({
      dataDir,
      clock,
      seed: 7,
      webhookFetch,
      maxPaymentsPerKey: 4,
      idempotencyTtlSeconds: 120,
      settlementDelaySeconds: 5,
      logger: () => {},
    });
    const mock = mockServerOf(runtime);
    const call = async (
      method: string,
      path: string,
      key: string,
      body?: unknown,
      idem?: string,
    ) => {
      const headers: Record<string, string> = { authorization: `Bearer ${key}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (idem !== undefined) headers['idempotency-key'] = idem;
      const response = await mock.fetch(
        new Request(`http://sandbox.test${path}`, {
          method,
          headers,
          body: body === undefined ? null : JSON.stringify(body),
        }),
      );
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : {} };
    };
    return { runtime, mock, call };
  };

  const first = open();
  const { call } = first;
  // One delivery in flight at a time (each call's deliveries settle before the next call): the
  // steps the journal groups do not depend on how the deliveries interleave.
  const settled = async <T>(answer: Promise<T>): Promise<T> => {
    const result = await answer;
    await first.mock.webhooksSettled();
    return result;
  };
  const ids: string[] = [];
  for (let index = 0; index < 5; index++) {
    const created = await call(
      'POST',
      '/v1/payments',
      KEY_A,
      { amount: 100 + index, currency: 'KZT', capture: index % 2 === 0, payment_method: card() },
      `create-${index}`,
    );
    ids.push(created.body.id);
  }
  await call('POST', `/v1/payments/${ids[3]}/capture`, KEY_A, { amount: 50 }, 'capture-3');
  await call('POST', `/v1/payments/${ids[4]}/refunds`, KEY_A, { amount: 4 }, 'refund-4');
  await call('POST', `/v1/payments/${ids[4]}/capture`, KEY_A, {}, 'capture-4');
  const pending = await call('POST', '/v1/payments', KEY_A, {
    amount: 7,
    currency: 'KZT',
    payment_method: card('tok_test_pending'),
  });
  await call('PUT', '/_sandbox/faults', KEY_A, { fail_next: { count: 1, status: 503 } });
  await call(
    'POST',
    '/v1/payments',
    KEY_A,
    { amount: 9, currency: 'KZT', payment_method: card() },
    'faulted',
  );
  await call('PUT', '/_sandbox/faults', KEY_A, { drop_after_commit: { count: 1 } });
  await call(
    'POST',
    '/v1/payments',
    KEY_A,
    { amount: 10, currency: 'KZT', payment_method: card() },
    'dropped',
  ).catch(() => undefined);
  const endpoint = await call('POST', '/v1/webhook_endpoints', KEY_A, {
    url: 'http://shop.test/hooks',
  });
  await call('POST', '/v1/webhook_endpoints', KEY_A, {
    url: 'http://shop.test/failed',
    events: ['payment.failed'],
  });
  // Answered 500: a retry is queued; answered 410 when it comes: the endpoint is disabled.
  await settled(
    call(
      'POST',
      '/v1/payments',
      KEY_A,
      { amount: 11, currency: 'KZT', payment_method: card() },
      'delivered',
    ),
  );
  clock.advance(10_000);
  await settled(call('GET', '/v1/payments', KEY_A));
  await settled(call('POST', '/_sandbox/clock/advance', KEY_A, { seconds: 30 }));
  await settled(call('GET', '/v1/payments', KEY_A));
  // Answered 204, at the endpoint of failed payments only.
  await settled(
    call(
      'POST',
      '/v1/payments',
      KEY_A,
      { amount: 8, currency: 'KZT', payment_method: card('tok_test_insufficient_funds') },
      'declined',
    ),
  );
  await call('DELETE', `/v1/webhook_endpoints/${endpoint.body.id}`, KEY_A);
  await call(
    'POST',
    '/v1/payments',
    KEY_B,
    { amount: 12, currency: 'KZT', payment_method: card() },
    'b-1',
  );
  await call('POST', '/_sandbox/reset', KEY_B);
  await call(
    'POST',
    '/v1/payments',
    KEY_B,
    { amount: 13, currency: 'KZT', payment_method: card() },
    'b-2',
  );
  clock.advance(200_000);
  await settled(call('GET', '/v1/payments', KEY_A));
  await call('GET', '/v1/payments', KEY_B);
  const directory = first.runtime.dataDirectory as DataDirectory;
  directory.flush();
  journals.push(readFileSync(directory.journalPath, 'utf8'));
  expect(directory.compact()).toBe(true);
  journals.push(readFileSync(directory.journalPath, 'utf8'));
  first.mock.close();

  // After a restart: the replayed keys are claimed by their API keys, then changed again.
  const second = open();
  const read = await second.call('GET', `/v1/payments/${pending.body.id}`, KEY_A);
  expect(read.body.status).toBe('SUCCEEDED');
  await second.call(
    'POST',
    '/v1/payments',
    KEY_A,
    { amount: 13, currency: 'KZT', payment_method: card() },
    'after',
  );
  // A reset before any other request of the key: the key's data read back is deleted too.
  const reset = await second.call('POST', '/_sandbox/reset', KEY_B);
  expect(reset.body).toMatchObject({ deleted_payments: 1 });
  expect((await second.call('GET', '/v1/payments', KEY_B)).body.data).toEqual([]);
  await second.mock.webhooksSettled();
  const again = second.runtime.dataDirectory as DataDirectory;
  again.flush();
  journals.push(readFileSync(again.journalPath, 'utf8'));
  second.mock.close();
  expect(readdirSync(dataDir).filter((name) => name.startsWith('journal'))).toHaveLength(1);
  return journals;
}

/** The journals' text with what is not seeded normalized: request ids by place, latencies, checksums. */
function normalized(journals: string[]): string {
  const seen = new Map<string, string>();
  return journals
    .join('\n=====\n')
    .replace(/req_[A-Za-z0-9]{20}/g, (id) => {
      if (!seen.has(id)) seen.set(id, `req_${seen.size}`);
      return seen.get(id) as string;
    })
    .replace(/"latency_ms":\d+/g, '"latency_ms":0')
    .replace(/^[0-9a-f]{8} /gm, '');
}

describe('the journal of one scenario', () => {
  it("holds every kind of change, in the order and form written before (a user's data on disk)", {
    timeout: 60_000,
  }, async () => {
    const journals = await scenario();
    const text = normalized(journals);
    for (const kind of ['p', 'p-', 'i', 'i-', 'f', 'o', 'r', 'e', 'e-', 'v', 'q', 'q-', 'l', 'g']) {
      expect(text, `a change of kind ${kind}`).toContain(`["${kind}",`);
    }
    // The journal is a user's durable data: a change here changes what every data directory holds.
    // If it is meant, say so in the changeset, and update this file with `vitest run -u`.
    await expect(text).toMatchFileSnapshot('./__snapshots__/journal-order.txt');
  });
});
