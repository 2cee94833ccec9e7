// The bytes a payment holds, counted alike by every store: after its creation and after transitions (past the timeline's cap), the memory store and Valkey/Redis hold the same sum.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../test-support/redis-server.js';
import { fleet, paymentRecord, ROOMY_LIMITS } from '../test-support/redis-stores.js';
import { MemorySeam } from './memory/memory-seam.js';
import { MemoryStore } from './memory/memory-store.js';
import type { SandboxStore } from './store.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const KEY = 'sk_test_byte_parity_0001';

/** Creates a payment, then changes it `steps` times (each a refund of one more unit). */
async function createAndChange(store: SandboxStore, steps: number): Promise<void> {
  const account = await store.open(KEY);
  await account.createPayment(paymentRecord('pay_1', { description: 'd'.repeat(40) }));
  for (let step = 1; step <= steps; step++) {
    const stored = await account.payment('pay_1');
    if (stored === undefined) throw new Error('the payment is gone');
    const next = { ...stored.payment, amount_refunded: step };
    const change = {
      at: step,
      change: 'refunded' as const,
      status: 'SUCCEEDED' as const,
      amount: step,
    };
    expect(await account.transitionPayment('pay_1', stored.json, next, change)).toBe(true);
  }
}

describe('the bytes of a payment, on the memory store and on Valkey/Redis', () => {
  it.each([0, 1, 5, 40])('are the same after its creation and %i transitions', async (steps) => {
    const memory = new MemoryStore(ROOMY_LIMITS);
    await createAndChange(new MemorySeam(memory), steps);
    const made = await fleet(redis.url, 1);
    try {
      const [onRedis] = made.stores;
      if (onRedis === undefined) throw new Error('no store');
      await createAndChange(onRedis, steps);
      const [memoryBytes, redisBytes] = [memory.stats().bytes, (await onRedis.stats()).bytes];
      expect(redisBytes).toBe(memoryBytes);
    } finally {
      await made.close();
    }
  });
});
