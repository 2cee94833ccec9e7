// RedisWebhooks against a real redis-server: endpoints, events, the log, and attempts claimed by one instance, leased, and taken over when the claimer dies.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.js';
import { fleet, paymentRecord, ROOMY_LIMITS } from '../../test-support/redis-stores.js';
import type { EndpointRecord, StoredEvent } from '../webhook-records.js';
import type { RedisStore } from './redis-store.js';

const KEY = 'sk_test_redis_hooks_01';

let redis: TestRedis;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A clock the test moves by hand (server ms epoch). */
const clock = { now: 1_000_000 };

async function twoInstances(options: Parameters<typeof fleet>[2] = {}) {
  const made = await fleet(redis.url, 2, { clock: () => clock.now, ...options });
  closers.push(made.close);
  const [a, b] = made.stores as [RedisStore, RedisStore];
  return { a, b };
}

function endpoint(id: string): EndpointRecord {
  return {
    endpoint: {
      id,
      object: 'webhook_endpoint',
      url: `http://127.0.0.1:9/${id}`,
      events: null,
      status: 'enabled',
      created_at: '2025-01-01T00:00:00Z',
    },
    key: new Uint8Array([1, 2, 3, 250]),
  };
}

const event = (id: string): StoredEvent => ({
  id,
  type: 'payment.succeeded',
  body: `{"id":"${id}"}`,
});

describe('RedisWebhooks', () => {
  it('keeps endpoints, events and the delivery log for every instance', async () => {
    const { a, b } = await twoInstances();
    const onA = await a.open(KEY);
    expect(onA.webhooks).toBeUndefined();
    const state = onA.webhookState();
    await state.saveEndpoint(endpoint('we_1'));
    await state.saveEndpoint(endpoint('we_2'));
    await state.rememberEvent(event('evt_1'));
    await state.record({
      object: 'webhook_delivery',
      event_id: 'evt_1',
      event_type: 'payment.succeeded',
      endpoint_id: 'we_1',
      url: 'http://127.0.0.1:9/we_1',
      attempt: 1,
      attempted_at: '2025-01-01T00:00:00Z',
      status: 200,
      error: null,
      latency_ms: 3,
      response_body: 'ok',
      next_retry_at: null,
    });
    const onB = await b.find(KEY);
    const hooks = onB?.webhooks;
    expect(hooks?.endpointCount()).toBe(2);
    expect((await hooks?.listEndpoints())?.map((record) => record.endpoint.id)).toEqual([
      'we_1',
      'we_2',
    ]);
    const one = await hooks?.endpointById('we_1');
    expect([...(one?.key ?? [])]).toEqual([1, 2, 3, 250]);
    await hooks?.disableEndpoint(endpoint('we_2'));
    expect((await state.endpointById('we_2'))?.endpoint.status).toBe('disabled');
    expect(await hooks?.deleteEndpoint('we_2')).toBe(true);
    expect(await hooks?.deleteEndpoint('we_2')).toBe(false);
    // Disabling a deleted endpoint does not bring it back.
    await hooks?.disableEndpoint(endpoint('we_2'));
    expect(await state.endpointById('we_2')).toBeUndefined();
    expect(hooks?.endpointCount()).toBe(1);
    expect(await hooks?.eventById('evt_1')).toEqual(event('evt_1'));
    expect(await hooks?.listEvents()).toEqual([event('evt_1')]);
    expect((await hooks?.deliveryLog())?.map((entry) => entry.event_id)).toEqual(['evt_1']);
  });

  it('keeps the 1 000 latest events and stays within half the key budget', async () => {
    const { a } = await twoInstances({
      limits: { ...ROOMY_LIMITS, keyMemoryBudgetBytes: 40_000 },
    });
    const state = (await a.open(KEY)).webhookState();
    for (let index = 0; index < 200; index++) await state.rememberEvent(event(`evt_${index}`));
    const events = await state.listEvents();
    expect(events.length).toBeLessThan(200);
    expect(events.at(-1)?.id).toBe('evt_199');
    const { bytes } = await a.stats();
    expect(bytes).toBeLessThanOrEqual(2048 + 20_000);
  });

  it('hands each due attempt to one instance only, and none before it is due', async () => {
    const { a, b } = await twoInstances();
    const stateA = (await a.open(KEY)).webhookState();
    for (let index = 0; index < 10; index++) {
      expect(
        await stateA.enqueue({
          event: event(`evt_${index}`),
          target: endpoint('we_1'),
          attempt: 1,
          dueAt: 100 + index,
        }),
      ).toBe(true);
    }
    const stateB = (await b.find(KEY))?.webhookState();
    expect(await stateB?.nextAttemptAt()).toBe(100);
    expect(await stateB?.claimDueAttempt(99)).toBeUndefined();
    expect((await stateB?.queuedAttempts())?.length).toBe(10);
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        (index % 2 === 0 ? stateA : stateB)?.claimDueAttempt(1000),
      ),
    );
    const taken = claims.filter((claim) => claim !== undefined).map((claim) => claim.event.id);
    expect(taken).toHaveLength(10);
    expect(new Set(taken).size).toBe(10);
    const first = claims.find((claim) => claim?.event.id === 'evt_0');
    expect(first?.target.endpoint.id).toBe('we_1');
    expect([...(first?.target.key ?? [])]).toEqual([1, 2, 3, 250]);
    expect(first?.dueAt).toBe(100);
    for (const claim of claims) if (claim !== undefined) await stateA.finishAttempt(claim);
    expect(await stateA.nextAttemptAt()).toBeUndefined();
    // Finished: no lease is left to expire.
    clock.now += 60_000;
    expect(await stateB?.claimDueAttempt(1000)).toBeUndefined();
  });

  it('marks an attempt made and schedules its retry in one step (a kill between cannot lose the retry)', async () => {
    const { a, b } = await twoInstances({ leaseMs: 10_000 });
    const stateA = (await a.open(KEY)).webhookState();
    await stateA.enqueue({ event: event('evt_1'), target: endpoint('we_1'), attempt: 1, dueAt: 5 });
    const claimed = await stateA.claimDueAttempt(10);
    const retry = { event: event('evt_1'), target: endpoint('we_1'), attempt: 2, dueAt: 5_010 };
    expect(await stateA.finishAttempt(claimed as NonNullable<typeof claimed>, retry)).toBe(true);
    // Instance A dies right after that one store call: B sees the retry, and no lease of A's.
    const stateB = (await b.find(KEY))?.webhookState();
    expect(await stateB?.nextAttemptAt()).toBe(5_010);
    expect((await stateB?.queuedAttempts())?.map((queued) => queued.attempt)).toEqual([2]);
    clock.now += 60_000;
    expect(await stateB?.claimDueAttempt(5_009)).toBeUndefined();
    const retried = await stateB?.claimDueAttempt(5_010);
    expect(retried?.attempt).toBe(2);
    expect(retried?.sequence).not.toBe(claimed?.sequence);
    expect(await stateB?.finishAttempt(retried as NonNullable<typeof retried>)).toBe(false);
    expect(await b.dueAccounts(clock.now + 1_000_000)).toEqual([]);
  });

  it('finishes an attempt whose retry finds the queue full, scheduling nothing', async () => {
    const { a } = await twoInstances({
      limits: { ...ROOMY_LIMITS, keyMemoryBudgetBytes: 4 * 160 * 2 },
    });
    const state = (await a.open(KEY)).webhookState();
    for (let index = 0; index < 2; index++) {
      const queued = { event: event(`evt_${index}`), target: endpoint('we_1'), attempt: 1 };
      expect(await state.enqueue({ ...queued, dueAt: index })).toBe(true);
    }
    const claimed = await state.claimDueAttempt(0);
    expect(
      await state.enqueue({
        event: event('evt_2'),
        target: endpoint('we_1'),
        attempt: 1,
        dueAt: 1,
      }),
    ).toBe(true);
    const retry = { event: event('evt_0'), target: endpoint('we_1'), attempt: 2, dueAt: 50 };
    expect(await state.finishAttempt(claimed as NonNullable<typeof claimed>, retry)).toBe(false);
    expect((await state.queuedAttempts()).map((queued) => queued.event.id).sort()).toEqual([
      'evt_1',
      'evt_2',
    ]);
  });

  it('shows an attempt whose claimer died as due again once its lease ends (what a dispatcher looks at)', async () => {
    const { a, b } = await twoInstances({ leaseMs: 10_000 });
    const stateA = (await a.open(KEY)).webhookState();
    await stateA.enqueue({ event: event('evt_1'), target: endpoint('we_1'), attempt: 1, dueAt: 5 });
    expect(await stateA.nextAttemptAt()).toBe(5);
    expect((await stateA.claimDueAttempt(10))?.event.id).toBe('evt_1');
    // Instance A dies while sending: leased, the attempt is due nowhere until its lease ends.
    const stateB = (await b.find(KEY))?.webhookState();
    clock.now += 9_999;
    expect(await stateB?.nextAttemptAt()).toBeUndefined();
    clock.now += 1;
    expect(await stateB?.nextAttemptAt()).toBe(5);
    const retaken = await stateB?.claimDueAttempt(10);
    expect(retaken?.event.id).toBe('evt_1');
    expect(await stateB?.nextAttemptAt()).toBeUndefined();
  });

  it('gives an attempt whose claimer died to another instance once its lease ends', async () => {
    const { a, b } = await twoInstances({ leaseMs: 10_000 });
    const stateA = (await a.open(KEY)).webhookState();
    await stateA.enqueue({ event: event('evt_1'), target: endpoint('we_1'), attempt: 2, dueAt: 5 });
    const claimed = await stateA.claimDueAttempt(10);
    expect(claimed?.attempt).toBe(2);
    // Instance A dies here: it never finishes the attempt.
    const due = await b.dueAccounts(clock.now + 9_999);
    expect(due).toEqual([]);
    const stateB = (await b.find(KEY))?.webhookState();
    clock.now += 9_999;
    expect(await stateB?.claimDueAttempt(10)).toBeUndefined();
    clock.now += 1;
    const [found] = await b.dueAccounts(clock.now);
    expect(found?.hash).toBe((await b.find(KEY))?.hash);
    const retaken = await found?.webhookState().claimDueAttempt(10);
    expect(retaken?.event.id).toBe('evt_1');
    expect(retaken?.sequence).toBe(claimed?.sequence);
    await found?.webhookState().finishAttempt(retaken as NonNullable<typeof retaken>);
    expect(await b.dueAccounts(clock.now + 1_000_000)).toEqual([]);
  });

  it("holds a key's delivery slots fleet-wide: none claimed past maxLeased, by any instance", async () => {
    const { a, b } = await twoInstances();
    const stateA = (await a.open(KEY)).webhookState();
    for (let index = 0; index < 3; index++) {
      await stateA.enqueue({
        event: event(`evt_${index}`),
        target: endpoint('we_1'),
        attempt: 1,
        dueAt: 5,
      });
    }
    const stateB = (await b.find(KEY))?.webhookState();
    const first = await stateA.claimDueAttempt(10, 2);
    const second = await stateB?.claimDueAttempt(10, 2);
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    // Two are leased, one by each instance: neither may take a third.
    expect(await stateA.claimDueAttempt(10, 2)).toBeUndefined();
    expect(await stateB?.claimDueAttempt(10, 2)).toBeUndefined();
    await stateA.finishAttempt(first as NonNullable<typeof first>);
    const third = await stateB?.claimDueAttempt(10, 2);
    expect(third?.event.id).toBe('evt_2');
  });

  it('finds due settlements and attempts of any key through the fleet-wide index, on the key clock', async () => {
    const { a, b } = await twoInstances();
    const onA = await a.open('sk_test_due_1');
    await onA.setOffset(3600);
    // Due at server time clock.now + 1000: on the key's clock, an hour later.
    const dueAt = clock.now + 3_600_000 + 1000;
    await onA
      .webhookState()
      .enqueue({ event: event('evt_1'), target: endpoint('we_1'), attempt: 1, dueAt });
    expect(await b.dueAccounts(clock.now + 999)).toEqual([]);
    const due = await b.dueAccounts(clock.now + 1000);
    expect(due).toHaveLength(1);
    // Moving the key's clock moves its place in the index.
    await onA.setOffset(7200);
    expect(await b.dueAccounts(clock.now)).toHaveLength(1);
  });

  it('refuses to schedule past the queue budget, scheduling nothing', async () => {
    const { a } = await twoInstances({
      limits: { ...ROOMY_LIMITS, keyMemoryBudgetBytes: 4 * 160 * 3 },
    });
    const state = (await a.open(KEY)).webhookState();
    const results: boolean[] = [];
    for (let index = 0; index < 5; index++) {
      results.push(
        await state.enqueue({
          event: event(`evt_${index}`),
          target: endpoint('we_1'),
          attempt: 1,
          dueAt: 0,
        }),
      );
    }
    expect(results).toEqual([true, true, true, false, false]);
    expect(await state.queuedAttempts()).toHaveLength(3);
  });

  it('leases on the store server clock when no clock is injected', async () => {
    const made = await fleet(redis.url, 2, { leaseMs: 0 });
    closers.push(made.close);
    const [a, b] = made.stores as [RedisStore, RedisStore];
    const stateA = (await a.open(KEY)).webhookState();
    await stateA.enqueue({ event: event('evt_1'), target: endpoint('we_1'), attempt: 1, dueAt: 0 });
    expect((await stateA.claimDueAttempt(0))?.event.id).toBe('evt_1');
    // A lease of 0 ms is over at once (by the server's TIME): another instance takes it.
    const stateB = (await b.find(KEY))?.webhookState();
    expect((await stateB?.claimDueAttempt(0))?.event.id).toBe('evt_1');
    const held = await fleet(redis.url, 2, {});
    closers.push(held.close);
    const [c, d] = held.stores as [RedisStore, RedisStore];
    const stateC = (await c.open(KEY)).webhookState();
    await stateC.enqueue({ event: event('evt_2'), target: endpoint('we_1'), attempt: 1, dueAt: 0 });
    expect((await stateC.claimDueAttempt(0))?.event.id).toBe('evt_2');
    expect(await (await d.find(KEY))?.webhookState().claimDueAttempt(0)).toBeUndefined();
  });

  it('drops a key from the due index when its due payment is evicted', async () => {
    const { a, b } = await twoInstances({ limits: { ...ROOMY_LIMITS, maxPaymentsPerKey: 1 } });
    const account = await a.open(KEY);
    await account.createPayment(paymentRecord('pay_1', { status: 'PENDING' }, 0));
    expect(await b.dueAccounts(clock.now)).toHaveLength(1);
    await account.createPayment(paymentRecord('pay_2'));
    expect(await b.dueAccounts(clock.now)).toEqual([]);
  });

  it('keeps a lease while its instance renews it, and lets it go when the instance stops', async () => {
    const { a, b } = await twoInstances({ leaseMs: 10_000 });
    const stateA = (await a.open(KEY)).webhookState();
    await stateA.enqueue({ event: event('evt_1'), target: endpoint('we_1'), attempt: 1, dueAt: 0 });
    const claimed = await stateA.claimDueAttempt(0);
    expect(claimed?.event.id).toBe('evt_1');
    const stateB = (await b.find(KEY))?.webhookState();
    // A slow endpoint: instance A is still sending after 8 s, and renews.
    clock.now += 8000;
    expect(await a.renewLeases()).toBe(1);
    clock.now += 4000;
    expect(await stateB?.claimDueAttempt(0)).toBeUndefined();
    expect(await b.renewLeases()).toBe(0);
    // Instance A dies: no renewal comes, and the lease ends 10 s after the last one.
    clock.now += 6000;
    const retaken = await stateB?.claimDueAttempt(0);
    expect(retaken?.event.id).toBe('evt_1');
    // The lease is B's now: A's renewals no longer hold it.
    expect(await a.renewLeases()).toBe(0);
    expect(await b.renewLeases()).toBe(1);
    if (retaken !== undefined) await stateB?.finishAttempt(retaken);
    expect(await b.renewLeases()).toBe(0);
    expect(await b.dueAccounts(clock.now + 1_000_000)).toEqual([]);
  });
});
