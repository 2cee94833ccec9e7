// A key's data read and written through the store seam: the same on the memory store, on an asynchronous one, and as the testing entry reads it at once.
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../app/runtime.js';
import { MemorySeam } from '../store/memory/memory-seam.js';
import type { MemoryStore } from '../store/memory/memory-store.js';
import { asyncStore } from '../test-support/async-store.js';
import { createHarness, TEST_KEY, validCreateBody } from '../test-support/harness.js';
import { heldAccountData } from '../testing/held-account.js';
import { readAccountData, replaceAccountData } from './account-data.js';

describe('readAccountData and replaceAccountData', () => {
  it('read the same through the memory seam, an asynchronous store, and at once from the memory store', async () => {
    let memory: MemoryStore | undefined;
    const harness = createHarness(
      { settlementDelaySeconds: 60 },
      {
        seam: (store) => {
          memory = store;
          return new MemorySeam(store);
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
    // The testing entry's read: plain data, at once.
    const held = heldAccountData(memory, TEST_KEY, state.defaultEndpoint);
    expect(held).not.toBeInstanceOf(Promise);
    const overSeam = await readAccountData({ ...state, store: new MemorySeam(memory) }, TEST_KEY);
    expect(overSeam).toEqual(held);
    const overAsync = { ...state, store: asyncStore(memory) };
    const data = await readAccountData(overAsync, TEST_KEY);
    expect(data).toEqual(held);
    expect(data.payments).toHaveLength(2);
    expect(data.idempotencyRecords.map((record) => record.key)).toEqual(['order-1']);
    expect(data.webhooks.endpoints).toHaveLength(1);
    // Written back through the asynchronous store under another key: read back the same.
    await replaceAccountData(overAsync, 'sk_test_copy_of_the_key_01', data);
    expect(await readAccountData(overAsync, 'sk_test_copy_of_the_key_01')).toEqual(data);
    expect(heldAccountData(memory, 'sk_test_copy_of_the_key_01', state.defaultEndpoint)).toEqual(
      data,
    );
  });

  it('reads a key that holds nothing as empty data, creating nothing', async () => {
    const runtime = createRuntime();
    runtime.close();
    const { memory, state } = runtime;
    if (memory === undefined) throw new Error('no memory store');
    const held = heldAccountData(memory, 'sk_test_nobody_here_00001', undefined);
    expect(held).toEqual(await readAccountData(state, 'sk_test_nobody_here_00001'));
    expect(held.payments).toEqual([]);
    expect(memory.holds('sk_test_nobody_here_00001')).toBe(false);
  });
});
