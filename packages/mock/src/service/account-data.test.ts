// A key's data read and written through the store seam: the same on the memory store and on an asynchronous one.
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../app/runtime.js';
import type { MemoryStore } from '../store/memory/memory-store.js';
import { asyncStore } from '../test-support/async-store.js';
import { createHarness, TEST_KEY, validCreateBody } from '../test-support/harness.js';
import { readAccountData, replaceAccountData } from './account-data.js';

describe('readAccountData and replaceAccountData', () => {
  it('read at once from the memory store, and the same from an asynchronous one', async () => {
    let memory: MemoryStore | undefined;
    const harness = createHarness(
      { settlementDelaySeconds: 60 },
      {
        seam: (store) => {
          memory = store;
          return store;
        },
      },
    );
    const { json } = harness;
    await json('POST', '/v1/webhook_endpoints', { body: { url: 'http://127.0.0.1:9/hooks' } });
    const headers = { 'idempotency-key': 'order-1' };
    await json('POST', '/v1/payments', { body: validCreateBody, headers });
    await json('POST', '/v1/payments', {
      body: { ...validCreateBody, payment_method: { type: 'token', token: 'tok_test_pending' } },
    });
    await json('PUT', '/_sandbox/faults', { body: { latency_ms: 5 } });
    harness.mock.close(); // no delivery changes the state between the reads
    const runtime = createRuntime();
    runtime.close(); // its tokens and settings only
    const { state } = runtime;
    if (memory === undefined) throw new Error('no memory store');
    const sync = readAccountData({ ...state, store: memory }, TEST_KEY);
    expect(sync).not.toBeInstanceOf(Promise);
    const overAsync = { ...state, store: asyncStore(memory) };
    const read = readAccountData(overAsync, TEST_KEY);
    expect(read).toBeInstanceOf(Promise);
    const data = await read;
    expect(data).toEqual(sync);
    expect(data.payments).toHaveLength(2);
    expect(data.idempotencyRecords.map((record) => record.key)).toEqual(['order-1']);
    expect(data.webhooks.endpoints).toHaveLength(1);
    // Written back through the asynchronous store under another key: read back the same.
    await replaceAccountData(overAsync, 'sk_test_copy_of_the_key_01', data);
    expect(await readAccountData(overAsync, 'sk_test_copy_of_the_key_01')).toEqual(data);
  });
});
