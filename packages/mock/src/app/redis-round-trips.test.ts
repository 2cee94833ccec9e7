// What a request costs on the wire through the whole server on Valkey/Redis: its round trips, each as the commands it carried.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpeningStore } from '../store/opening-store.js';
import { RedisStore } from '../store/redis/redis-store.js';
import { HOLD_BACK_MS } from '../store/redis/runner.js';
import { startTestRedis, type TestRedis } from '../test-support/redis-server.js';
import { wireTrace } from '../test-support/round-trips.js';
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
  capture: false,
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
  await runtime.requestsRecorded();
});

afterAll(async () => {
  mock?.close();
  await redis?.stop();
});

/**
 * The round trips of one request: those made before its answer, then those after it (the
 * inspector's record, sent without holding the answer), until they are stored.
 */
async function cost(
  path: string,
  init: RequestInit,
): Promise<{ beforeAnswer: string[][]; afterAnswer: string[][]; answer: Response }> {
  let answer: Response | undefined;
  const beforeAnswer = await wireTrace(client, async () => {
    answer = await mock.fetch(path, init);
  });
  const afterAnswer = await wireTrace(client, () => runtime.requestsRecorded());
  if (answer === undefined) throw new Error('no answer');
  return { beforeAnswer, afterAnswer, answer };
}

describe('round trips to the store per request, through the whole server', () => {
  it('counts a create, a retrieve and a capture', async () => {
    const withKey = (idempotencyKey: string) => ({ ...headers, 'idempotency-key': idempotencyKey });
    const create = await cost('/v1/payments', { method: 'POST', headers: withKey('rt-1'), body });
    expect(create.answer.status).toBe(201);
    const { id } = (await create.answer.json()) as { id: string };
    const createWithoutKey = await cost('/v1/payments', { method: 'POST', headers, body });
    expect(createWithoutKey.answer.status).toBe(201);
    const retrieve = await cost(`/v1/payments/${id}`, { headers });
    expect(retrieve.answer.status).toBe(200);
    const capture = await cost(`/v1/payments/${id}/capture`, {
      method: 'POST',
      headers: withKey('rt-2'),
      body: '{}',
    });
    expect(capture.answer.status).toBe(200);
    const replay = await cost('/v1/payments', { method: 'POST', headers: withKey('rt-1'), body });
    expect(replay.answer.headers.get('idempotent-replayed')).toBe('true');
    const newKey = { ...withKey('rt-3'), authorization: 'Bearer sk_test_round_trips_0002' };
    const firstOfKey = await cost('/v1/payments', { method: 'POST', headers: newKey, body });
    expect(firstOfKey.answer.status).toBe(201);
    // Measured 2026-11-26. Before its answer, a request waits on: a create with an
    // Idempotency-Key 2 round trips (the account read, its key claimed and the sandbox's room
    // asked in one write; then the payment made with its key's answer), a create without one 2,
    // a retrieve 1 (the account read with the payment), a capture with a key 2 (the account
    // read with the key claimed and the payment read; then the compare-and-set), a replay 1,
    // a new key's first create with a key 2 (its account made with the key claimed).
    // After it, each sends the inspector's record, not waited for: held back to ride in the next
    // call's write (the next request's first round trip, below), or alone after HOLD_BACK_MS or
    // when the inspector reads (as here: 1 round trip).
    // History: 13 and 8 round trips for a create with a key and a retrieve when each step read
    // the account again; 7 and 4 once a request read it once (the inspector's record waited on,
    // the settlement and the release each asked).
    // A ratchet: a change may only lower these.
    const oneOpen = [['psm_open', 'psm_admit']];
    expect(create.beforeAnswer).toEqual([...oneOpen, ['psm_create']]);
    expect(createWithoutKey.beforeAnswer).toEqual([...oneOpen, ['psm_create']]);
    expect(retrieve.beforeAnswer).toEqual([['psm_find']]);
    expect(capture.beforeAnswer).toEqual([...oneOpen, ['psm_transition']]);
    expect(replay.beforeAnswer).toEqual(oneOpen);
    expect(firstOfKey.beforeAnswer).toEqual([...oneOpen, ['psm_create']]);
    for (const request of [create, createWithoutKey, retrieve, capture, replay, firstOfKey]) {
      expect(request.afterAnswer).toEqual([['psm_request']]);
    }
  });

  it("sends a request's record in the next request's first round trip", async () => {
    const store = (runtime.state.store as OpeningStore).current as RedisStore;
    // Held until the next call or a flush, however slow this machine is between the requests.
    store.runner.holdBackMs = 60_000;
    try {
      await runtime.requestsRecorded();
      const create = () => mock.fetch('/v1/payments', { method: 'POST', headers, body });
      const first = await wireTrace(client, async () => {
        expect((await create()).status).toBe(201);
      });
      const second = await wireTrace(client, async () => {
        expect((await create()).status).toBe(201);
      });
      const flushed = await wireTrace(client, () => runtime.requestsRecorded());
      // Two creates in a row: 2 round trips each; the first one's record rides in the second's
      // first write, the second's goes out when the inspector asks (or after HOLD_BACK_MS).
      expect(first).toEqual([['psm_open', 'psm_admit'], ['psm_create']]);
      expect(second).toEqual([['psm_request', 'psm_open', 'psm_admit'], ['psm_create']]);
      expect(flushed).toEqual([['psm_request']]);
      // The inspector shows both.
      const inspector = await mock.fetch('/_sandbox/inspector', { headers });
      const { requests } = (await inspector.json()) as { requests: unknown[] };
      expect(requests.length).toBeGreaterThanOrEqual(2);
    } finally {
      store.runner.holdBackMs = HOLD_BACK_MS;
    }
  });

  it('asks for the settlements only when one is due, as read with the account', async () => {
    const pending = await mock.fetch('/v1/payments', {
      method: 'POST',
      headers,
      body: body.replace('tok_test_success', 'tok_test_pending'),
    });
    expect(pending.status).toBe(201);
    const { id } = (await pending.json()) as { id: string };
    await runtime.requestsRecorded();
    // Not due yet: the retrieve asks nothing more.
    const early = await cost(`/v1/payments/${id}`, { headers });
    expect(early.beforeAnswer).toEqual([['psm_find']]);
    expect(((await early.answer.json()) as { status: string }).status).toBe('PENDING');
  });
});
