// A sandbox_full refusal on Valkey/Redis, through the whole server: the refused new key leaves no key in the store and the sandbox's totals (bytes, payments, records) are as before it.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpeningStore } from '../store/opening-store.js';
import { accountHash } from '../store/redis/keys.js';
import { RedisStore } from '../store/redis/redis-store.js';
import { startTestRedis, type TestRedis } from '../test-support/redis-server.js';
import { type MockServer, mockServerOf } from './mock-server.js';
import { createRuntime, type Runtime } from './runtime.js';

let redis: TestRedis;
let runtime: Runtime;
let mock: MockServer;
let client: Redis;
const prefix = `refusal${process.pid}:`;

beforeAll(async () => {
  redis = await startTestRedis();
  runtime = createRuntime({ redisUrl: redis.url, redisPrefix: prefix, maxPaymentsTotal: 1 });
  mock = mockServerOf(runtime);
  await mock.ready();
  const store = (runtime.state.store as OpeningStore).current;
  if (!(store instanceof RedisStore)) throw new Error('not on Redis');
  client = store.client;
});

afterAll(async () => {
  mock?.close();
  await redis?.stop();
});

const create = (key: string, idempotencyKey?: string) =>
  mock.fetch('/v1/payments', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    },
    body: JSON.stringify({
      amount: 1000,
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_success' },
    }),
  });

/** Every key under the sandbox's prefix, with the sandbox's totals. */
async function stored(): Promise<{ keys: string[]; totals: number[] }> {
  await runtime.requestsRecorded();
  const keys = (await client.keys(`${prefix}*`)).sort();
  // Bytes, payments and Idempotency-Key records held (a field never counted reads as 0).
  const totals = await client.hmget(`${prefix}totals`, 'b', 'p', 'r');
  return { keys, totals: totals.map((value) => Number(value ?? 0)) };
}

describe('a sandbox_full refusal on Valkey/Redis', () => {
  it('leaves no key of the refused account and the totals as they were', async () => {
    expect((await create('sk_test_refusal_holder_0001')).status).toBe(201);
    const before = await stored();
    const stranger = 'sk_test_refusal_stranger_01';
    for (const idempotencyKey of [undefined, 'k-1', 'k-2']) {
      expect((await create(stranger, idempotencyKey)).status).toBe(503);
    }
    const after = await stored();
    expect(after.keys.filter((name) => name.includes(accountHash(stranger)))).toEqual([]);
    expect(after.totals).toEqual(before.totals);
    expect(after.keys).toEqual(before.keys);
  });
});
