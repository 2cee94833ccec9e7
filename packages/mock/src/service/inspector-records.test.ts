// The inspector's request records: secrets never shown (headers, query, body, a cut body), and what each record keeps.
import { describe, expect, it } from 'vitest';
import { MAX_RECORDED_BODY_CHARS } from '../store/limits.js';
import { MemorySeam } from '../store/memory/memory-seam.js';
import type { MemoryStore } from '../store/memory/memory-store.js';
import { STORES } from '../test-support/async-store.js';
import { type CallOptions, createHarness, TEST_KEY } from '../test-support/harness.js';

const LIVE = 'sk_live_51Habcdefghijklmnopqrstu';
const OTHER = 'sk_test_51Hzyxwvutsrqponmlkjihg';
const PASSWORD = 'hunter2hunter2';
const QUERY_VALUE = 'Qx7Kp2Vm9Zt4';
/** Text of the secrets above that the inspector may never show (6 characters in a row of any). */
const SECRET_PARTS = [LIVE.slice(8), OTHER.slice(8), PASSWORD, QUERY_VALUE];

const create = (fields: Record<string, unknown> = {}) => ({
  amount: 1000,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_success' },
  ...fields,
});

/** A client's requests with secrets everywhere they can go: header, query, path, body, a cut body. */
async function sendSecrets(harness: ReturnType<typeof createHarness>): Promise<void> {
  const send = async (method: string, path: string, options: CallOptions = {}) => {
    await (await harness.call(method, path, options)).arrayBuffer();
  };
  const hook = `https://user:${PASSWORD}@receiver.example/h?token=${QUERY_VALUE}`;
  await send('POST', `/v1/payments?api_key=${LIVE}`, {
    headers: { 'x-api-key': OTHER, 'idempotency-key': `idem-${OTHER}` },
    body: create({ description: `pay ${LIVE} and ${OTHER}` }),
  });
  await send('POST', '/v1/webhook_endpoints', { body: { url: hook } });
  // Cut at 4,096 characters: no longer JSON, masked all the same.
  await send('POST', '/v1/webhook_endpoints', { body: { url: hook, padding: 'p'.repeat(5000) } });
  await send('POST', '/v1/payments', {
    body: create({ description: `${LIVE} ${'d'.repeat(5000)}` }),
  });
  await send('POST', '/v1/payments', {
    rawBody: `amount=1000&key=${LIVE}&hook=${hook}`,
    headers: { 'content-type': 'application/json' },
  });
  await send('GET', `/v1/payments/${LIVE}`);
  await send('GET', `/v1/payments?limit=100&starting_after=${OTHER}`);
}

for (const { name, hooks } of STORES) {
  describe(name, () => {
    it('never shows a secret sent in a header, the query, the path or a body, whole or cut', async () => {
      const harness = createHarness({}, hooks);
      await sendSecrets(harness);
      const inspector = await harness.call('GET', '/_sandbox/inspector');
      const text = await inspector.text();
      const requests = (JSON.parse(text) as { requests: Record<string, unknown>[] }).requests;
      expect(requests).toHaveLength(7);
      for (const part of SECRET_PARTS) {
        for (let at = 0; at + 6 <= part.length; at++) {
          expect(text).not.toContain(part.slice(at, at + 6));
        }
      }
      const [starting, path, nonJson, cutPayment, cutHook, hook, first] = requests;
      expect(first).toMatchObject({ method: 'POST', path: '/v1/payments', status: 201 });
      expect(JSON.parse(String(first?.request_body)).description).toBe(
        'pay sk_live_… and sk_test_…',
      );
      expect(JSON.parse(String(hook?.request_body))).toEqual({
        url: 'https://***:***@receiver.example/h?token=***',
      });
      expect(cutHook).toMatchObject({ status: 400, truncated: true });
      expect(String(cutHook?.request_body)).toMatch(
        /^\{"url":"https:\/\/\*\*\*:\*\*\*@receiver\.example\/h\?token=\*\*\*","padding":"p+$/,
      );
      // The first 4,096 characters as sent, shorter once masked.
      expect(String(cutHook?.request_body).length).toBeLessThan(MAX_RECORDED_BODY_CHARS);
      expect(cutPayment).toMatchObject({ status: 400, truncated: true });
      expect(String(cutPayment?.request_body)).toContain('"description":"sk_live_… ddd');
      expect(nonJson).toMatchObject({ status: 400, code: 'invalid_json' });
      expect(nonJson?.request_body).toBe(
        'amount=1000&key=sk_live_…&hook=https://***:***@receiver.example/h?token=***',
      );
      expect(path).toMatchObject({ path: '/v1/payments/sk_live_…', status: 404 });
      expect(starting).toMatchObject({ path: '/v1/payments', status: 400 });
    });
  });
}

for (const { name, hooks } of STORES) {
  describe(name, () => {
    it('never shows a key a client wrote in the path with percent-escapes', async () => {
      const harness = createHarness({}, hooks);
      const escaped = `${LIVE.replaceAll('_', '%5F')}`;
      await (await harness.call('GET', `/v1/payments/${escaped}`)).arrayBuffer();
      await (
        await harness.call('GET', `/v1/payments/${OTHER.replaceAll('_', '%255F')}`)
      ).arrayBuffer();
      const text = await (await harness.call('GET', '/_sandbox/inspector')).text();
      for (const part of SECRET_PARTS.slice(0, 2)) {
        for (let at = 0; at + 6 <= part.length; at++) {
          expect(text).not.toContain(part.slice(at, at + 6));
        }
      }
      const requests = (JSON.parse(text) as { requests: Record<string, unknown>[] }).requests;
      expect(requests.map((request) => request.path)).toEqual([
        '/v1/payments/sk_test_…',
        '/v1/payments/sk_live_…',
      ]);
    });
  });
}

describe('what the memory store keeps of a request for the inspector', () => {
  it('is one object of ten primitive fields, the bodies cut at 4,096 characters', async () => {
    let memory: MemoryStore | undefined;
    const harness = createHarness(
      {},
      {
        seam: (store) => {
          memory = store;
          return new MemorySeam(store);
        },
      },
    );
    await sendSecrets(harness);
    const entries = memory?.find(TEST_KEY)?.recentRequests() ?? [];
    expect(entries).toHaveLength(7);
    for (const entry of entries) {
      // One object per record: every field a string, number, boolean or null (no nested object,
      // no masked copy: masking is done when the inspector reads it).
      expect(Object.keys(entry)).toEqual([
        'requestId',
        'method',
        'path',
        'status',
        'code',
        'latencyMs',
        'receivedAt',
        'requestBody',
        'responseBody',
        'truncated',
      ]);
      for (const value of Object.values(entry)) {
        expect(value === null || typeof value !== 'object').toBe(true);
      }
      expect((entry.requestBody ?? '').length).toBeLessThanOrEqual(MAX_RECORDED_BODY_CHARS);
      expect((entry.responseBody ?? '').length).toBeLessThanOrEqual(MAX_RECORDED_BODY_CHARS);
    }
    // Kept as sent: the secrets are masked on read, not on the request path.
    expect(entries.at(-1)?.requestBody).toContain(LIVE);
  });
});
