// What a create and a retrieve cost on the wire through the whole server on Valkey/Redis: round trips and commands.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpeningStore } from '../store/opening-store.js';
import { RedisStore } from '../store/redis/redis-store.js';
import { startTestRedis, type TestRedis } from '../test-support/redis-server.js';
import { wireCost } from '../test-support/round-trips.js';
import { type MockServer, mockServerOf } from './mock-server.js';
import { createRuntime, type Runtime } from './runtime.js';

let redis: TestRedis;
let runtime: Runtime;
let mock: MockServer;
let client: Redis;
const key = 'sk_test_round_trips_0001';
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const body = JSON.stringify({
  amount: 1000,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_success' },
});

beforeAll(async () => {
  redis = await startTestRedis();
  runtime = createRuntime({ redisUrl: redis.url, redisPrefix: `rt${process.pid}:` });
  mock = mockServerOf(runtime);
  await mock.ready();
  const store = (runtime.state.store as OpeningStore).current;
  if (!(store instanceof RedisStore)) throw new Error('not on Redis');
  client = store.client;
  // The key's account exists and this instance holds its handle, as after its first request.
  await mock.fetch('/v1/payments', { method: 'POST', headers, body });
});

afterAll(async () => {
  mock?.close();
  await redis?.stop();
});

describe('round trips to the store per request, through the whole server', () => {
  it('counts a create with an Idempotency-Key and a retrieve', async () => {
    let id = '';
    let index = 0;
    const create = await wireCost(client, async () => {
      const answer = await mock.fetch('/v1/payments', {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': `rt-${index++}` },
        body,
      });
      id = ((await answer.json()) as { id: string }).id;
    });
    const retrieve = await wireCost(client, async () => {
      const answer = await mock.fetch(`/v1/payments/${id}`, { headers });
      expect(answer.status).toBe(200);
    });
    // Measured 2026-11-25: a create 7 (find, open, claim_key, admit, settle, create, request),
    // a retrieve 4 (find, settle, payment, request): a request reads the key's account once
    // (it was 13 and 8 when each step read it again). The store's fast paths (openAndClaim,
    // findWithPayment) would make them 2 and 1, the goal; the server does not use them yet.
    // A ratchet: a change may only lower these.
    expect(create).toEqual({ roundTrips: create.commands, commands: create.commands });
    expect(create.roundTrips).toBeLessThanOrEqual(7);
    expect(retrieve.roundTrips).toBeLessThanOrEqual(4);
  });
});
