// What the Redis store's calls cost on the wire: a create at most 2 round trips, a retrieve 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.js';
import {
  fleet,
  inFlightRecord,
  paymentRecord,
  requestEntry,
} from '../../test-support/redis-stores.js';
import { wireCost } from '../../test-support/round-trips.js';
import { jsonResponse } from '../records.js';
import type { RedisStore } from './redis-store.js';
import { HOLD_BACK_MS } from './runner.js';

const KEY = 'sk_test_round_trips';

let redis: TestRedis;
let store: RedisStore;
let close: () => Promise<void>;

beforeAll(async () => {
  redis = await startTestRedis();
  const made = await fleet(redis.url, 1);
  store = made.stores[0] as RedisStore;
  close = made.close;
});
afterAll(async () => {
  await close();
  await redis.stop();
});

describe('RedisStore round trips', () => {
  it('costs one round trip (one command) per store call, and open with admit share one', async () => {
    const cost = (operation: () => Promise<unknown>) => wireCost(store.client, operation);
    const account = await store.open(KEY);
    expect(await cost(() => Promise.all([store.open(KEY), store.admit()]))).toEqual({
      roundTrips: 1,
      commands: 2,
    });
    const record = inFlightRecord('order-1', 'x');
    expect(await cost(() => account.claimIdempotencyKey(record, 0))).toEqual({
      roundTrips: 1,
      commands: 1,
    });
    const created = paymentRecord('pay_1');
    const completion = { record, response: jsonResponse(201, created.json) };
    expect(await cost(() => account.createPayment(created, completion))).toEqual({
      roundTrips: 1,
      commands: 1,
    });
    expect(await cost(() => account.payment('pay_1'))).toEqual({ roundTrips: 1, commands: 1 });
    expect(await cost(() => account.listPayments(10))).toEqual({ roundTrips: 1, commands: 1 });
    const stored = await account.payment('pay_1');
    if (stored === undefined) throw new Error('pay_1 is stored');
    const next = { ...stored.payment, status: 'SUCCEEDED' as const };
    const step = { at: 1, change: 'captured' as const, status: 'SUCCEEDED' as const, amount: 1000 };
    expect(await cost(() => account.transitionPayment('pay_1', stored.json, next, step))).toEqual({
      roundTrips: 1,
      commands: 1,
    });
    // Nothing armed: consuming a fault asks nothing.
    expect(await cost(async () => account.consumeFailure())).toEqual({
      roundTrips: 0,
      commands: 0,
    });
  });

  it('a request as the service makes it: create without a key 2 round trips, with one 3, retrieve 2', async () => {
    const cost = (operation: () => Promise<unknown>) => wireCost(store.client, operation);
    const createWithoutKey = await cost(async () => {
      const [account] = await Promise.all([store.open(KEY), store.admit()]);
      await account.createPayment(paymentRecord('pay_2'));
    });
    expect(createWithoutKey.roundTrips).toBe(2);
    const createWithKey = await cost(async () => {
      const [account] = await Promise.all([store.open(KEY), store.admit()]);
      const record = inFlightRecord('order-2', 'y');
      await account.claimIdempotencyKey(record, 0);
      const created = paymentRecord('pay_3');
      await account.createPayment(created, { record, response: jsonResponse(201, created.json) });
    });
    expect(createWithKey.roundTrips).toBe(3);
    const retrieve = await cost(async () => {
      const account = await store.find(KEY);
      await account?.payment('pay_3');
    });
    expect(retrieve.roundTrips).toBe(2);
  });

  it('the fast paths: a create with a key in 2 round trips, a retrieve in 1', async () => {
    const cost = (operation: () => Promise<unknown>) => wireCost(store.client, operation);
    let claimed: string | undefined;
    const createWithKey = await cost(async () => {
      const [{ account, claim }] = await Promise.all([
        store.openAhead(
          KEY,
          0,
          (accountNow) => inFlightRecord('order-3', 'z', accountNow + 1000),
          undefined,
        ),
        store.admit(),
      ]);
      claimed = claim.kind;
      if (claim.kind !== 'claimed') return;
      const created = paymentRecord('pay_4');
      await account.createPayment(created, {
        record: claim.record,
        response: jsonResponse(201, created.json),
      });
    });
    expect(claimed).toBe('claimed');
    expect(createWithKey).toEqual({ roundTrips: 2, commands: 3 });
    const retrieve = await cost(async () => {
      const { payment } = await store.findWithPayment(KEY, 'pay_4');
      expect(payment?.id).toBe('pay_4');
    });
    expect(retrieve).toEqual({ roundTrips: 1, commands: 1 });
  });

  it("holds a request's record back to ride in the next call's write, and bounds what it holds", async () => {
    const account = await store.open(KEY);
    // Held until the next call however slow this machine is (HOLD_BACK_MS otherwise).
    store.runner.holdBackMs = 60_000;
    try {
      const recorded = account.recordRequest(requestEntry('req_held'));
      const read = await wireCost(store.client, () => account.payment('pay_1'));
      expect(read).toEqual({ roundTrips: 1, commands: 2 });
      await recorded;
      expect((await account.recentRequests())[0]?.requestId).toBe('req_held');
      // However many are held back, they go out once the bound is reached, not later.
      const many = Array.from({ length: 300 }, (_, index) =>
        account.recordRequest(requestEntry(`req_${index}`)),
      );
      await Promise.all(many.slice(0, 256));
      expect(
        (await account.recentRequests()).some((stored) => stored.requestId === 'req_255'),
      ).toBe(true);
      store.flush();
      await Promise.all(many);
    } finally {
      store.runner.holdBackMs = HOLD_BACK_MS;
    }
  });
});
