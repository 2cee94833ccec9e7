// RedisStore against a real redis-server: the seam's atomic calls, across two instances of a fleet.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.js';
import {
  fleet,
  inFlightRecord,
  paymentRecord,
  RECORD_CHECKS,
  ROOMY_LIMITS,
  requestEntry,
} from '../../test-support/redis-stores.js';
import { jsonResponse } from '../records.js';
import { createRedisClient } from './client.js';
import { StoreFormatError } from './errors.js';
import { accountHash } from './keys.js';
import { RedisStore } from './redis-store.js';

const KEY = 'sk_test_redis_store_01';

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

/** Two instances of one fleet (on a new prefix), closed after the test. */
async function twoInstances(options: Parameters<typeof fleet>[2] = {}) {
  const made = await fleet(redis.url, 2, options);
  closers.push(made.close);
  const [a, b] = made.stores as [RedisStore, RedisStore];
  return { a, b, prefix: made.prefix };
}

/** The value, which the test expects to be there. */
function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}

const captured = { at: 1, change: 'captured' as const, status: 'SUCCEEDED' as const, amount: 1000 };

describe('RedisStore: payments', () => {
  it('creates on one instance, retrieves and lists on the other, newest first with paging', async () => {
    const { a, b } = await twoInstances();
    const onA = await a.open(KEY);
    for (let index = 1; index <= 5; index++) await onA.createPayment(paymentRecord(`pay_${index}`));
    const onB = await b.find(KEY);
    expect(onB).toBeDefined();
    const stored = await must(onB).payment('pay_3');
    expect(stored?.payment.id).toBe('pay_3');
    expect(stored?.token).toBe('tok_test_success');
    expect(stored?.timeline).toEqual([
      { at: 0, change: 'created', status: 'AUTHORIZED', amount: 1000 },
    ]);
    expect(await must(onB).payment('pay_missing')).toBeUndefined();
    const first = await must(onB).listPayments(2);
    expect(first?.data.map((p) => p.id)).toEqual(['pay_5', 'pay_4']);
    expect(first?.has_more).toBe(true);
    const last = await must(onB).listPayments(3, 'pay_3');
    expect(last?.data.map((p) => p.id)).toEqual(['pay_2', 'pay_1']);
    expect(last?.has_more).toBe(false);
    expect(await must(onB).listPayments(2, 'pay_unknown')).toBeUndefined();
    expect([...(await must(onB).storedPayments())].map((p) => p.id)).toEqual([
      'pay_1',
      'pay_2',
      'pay_3',
      'pay_4',
      'pay_5',
    ]);
    // Reads never create an account.
    expect(await b.find('sk_test_nobody_here')).toBeUndefined();
  });

  it('refuses a payment, endpoint or event whose id another instance made (one seed), changing nothing', async () => {
    const { a, b } = await twoInstances();
    const onA = await a.open(KEY);
    const first = paymentRecord('pay_seeded');
    await onA.createPayment(first);
    const onB = must(await b.find(KEY));
    const record = inFlightRecord('seeded', 'h1');
    expect(await onB.claimIdempotencyKey(record, 0)).toBeUndefined();
    const again = paymentRecord('pay_seeded', { amount: 5, description: 'drawn again' });
    const response = jsonResponse(201, again.json);
    expect(await onB.createPayment(again, { record, response })).toBeUndefined();
    expect(must(await onA.payment('pay_seeded')).json).toBe(first.json);
    expect(must(await onA.listPayments(10)).data.map((stored) => stored.id)).toEqual([
      'pay_seeded',
    ]);
    expect(must(await onA.idempotencyRecord('seeded')).response).toBeUndefined();
    const drawn = paymentRecord('pay_drawn');
    const answer = jsonResponse(201, drawn.json);
    expect((await onB.createPayment(drawn, { record, response: answer }))?.id).toBe('pay_drawn');
    expect(must(await onA.idempotencyRecord('seeded')).response).toEqual(answer);

    const endpoint = {
      endpoint: {
        id: 'we_seeded',
        object: 'webhook_endpoint' as const,
        url: 'http://127.0.0.1:9/first',
        events: null,
        status: 'enabled' as const,
        created_at: '2025-01-01T00:00:00Z',
      },
      key: new Uint8Array(32),
    };
    expect(await onA.webhookState().saveEndpoint(endpoint)).toBe('saved');
    const other = { ...endpoint, endpoint: { ...endpoint.endpoint, url: 'http://127.0.0.1:9/b' } };
    expect(await onB.webhookState().saveEndpoint(other)).toBe('id held');
    const listed = await onA.webhookState().listEndpoints();
    expect(listed.map((held) => held.endpoint.url)).toEqual(['http://127.0.0.1:9/first']);
    const event = { id: 'evt_seeded', type: 'payment.succeeded' as const, body: '{"first":1}' };
    expect(await onA.webhookState().rememberEvent(event)).toBe(true);
    expect(await onB.webhookState().rememberEvent({ ...event, body: '{"second":2}' })).toBe(false);
    const kept = await onA.webhookState().listEvents();
    expect(kept.map((held) => held.body)).toEqual(['{"first":1}']);
  });

  it('stores the API key only as its hash', async () => {
    const { a, prefix } = await twoInstances();
    await (await a.open(KEY)).createPayment(paymentRecord('pay_1'));
    const keys = await a.client.keys(`${prefix}*`);
    expect(keys.some((key) => key.includes(accountHash(KEY)))).toBe(true);
    expect(keys.join(' ')).not.toContain(KEY);
    for (const key of keys) {
      const dump = JSON.stringify(await a.client.dump(key));
      expect(dump).not.toContain(KEY);
    }
  });

  it('lets one of two concurrent transitions win; the loser changes nothing', async () => {
    const { a, b } = await twoInstances();
    const onA = await a.open(KEY);
    await onA.createPayment(paymentRecord('pay_1'));
    const onB = must(await b.find(KEY));
    const [readA, readB] = await Promise.all([onA.payment('pay_1'), onB.payment('pay_1')]);
    const capturedPayment = {
      ...must(readA).payment,
      status: 'SUCCEEDED' as const,
      amount_captured: 1000,
    };
    const canceled = { ...must(readB).payment, status: 'CANCELED' as const };
    const cancel = { at: 2, change: 'canceled' as const, status: 'CANCELED' as const, amount: 0 };
    const results = await Promise.all([
      onA.transitionPayment('pay_1', must(readA).json, capturedPayment, captured),
      onB.transitionPayment('pay_1', must(readB).json, canceled, cancel),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const after = await onA.payment('pay_1');
    expect(after?.timeline).toHaveLength(2);
    expect(after?.payment.status).toBe(results[0] ? 'SUCCEEDED' : 'CANCELED');
    expect(await onA.transitionPayment('pay_unknown', must(readA).json, canceled, cancel)).toBe(
      false,
    );
  });

  it('keeps the 31 latest timeline steps after the creation', async () => {
    const { a } = await twoInstances();
    const account = await a.open(KEY);
    await account.createPayment(paymentRecord('pay_1'));
    for (let step = 1; step <= 40; step++) {
      const stored = must(await account.payment('pay_1'));
      const next = { ...stored.payment, amount_refunded: step };
      const change = {
        at: step,
        change: 'refunded' as const,
        status: 'SUCCEEDED' as const,
        amount: step,
      };
      expect(await account.transitionPayment('pay_1', stored.json, next, change)).toBe(true);
    }
    const timeline = must(await account.payment('pay_1')).timeline;
    expect(timeline).toHaveLength(32);
    expect(timeline[0]?.change).toBe('created');
    expect(timeline[1]?.at).toBe(10);
    expect(timeline[31]?.at).toBe(40);
  });

  it('reads a settled payment back on another instance, with no settlement time left', async () => {
    const { a, b } = await twoInstances();
    const onA = await a.open(KEY);
    await onA.createPayment(paymentRecord('pay_1', { status: 'PENDING' }, 500));
    const [due] = await onA.takeDueSettlements(500);
    const stored = must(due);
    expect(stored.settlesAt).toBe(500);
    const settled = { ...stored.payment, status: 'SUCCEEDED' as const };
    const step = { at: 500, change: 'settled' as const, status: 'SUCCEEDED' as const, amount: 0 };
    expect(await onA.transitionPayment('pay_1', stored.json, settled, step)).toBe(true);
    // Another instance checks what it reads: a SUCCEEDED payment with a settlement time was refused.
    const read = await must(await b.find(KEY)).payment('pay_1');
    expect(read?.payment.status).toBe('SUCCEEDED');
    expect(read?.settlesAt).toBeUndefined();
  });

  it('hands each due settlement to one instance only', async () => {
    const { a, b } = await twoInstances();
    const onA = await a.open(KEY);
    for (let index = 0; index < 20; index++) {
      await onA.createPayment(paymentRecord(`pay_${index}`, { status: 'PENDING' }, 500 + index));
    }
    const onB = must(await b.find(KEY));
    expect(await onA.nextSettlementAt()).toBe(500);
    expect(await onB.takeDueSettlements(499)).toEqual([]);
    const [takenA, takenB] = await Promise.all([
      onA.takeDueSettlements(1000),
      onB.takeDueSettlements(1000),
    ]);
    const ids = [...takenA, ...takenB].map((p) => p.id).sort();
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    expect(await onA.nextSettlementAt()).toBeUndefined();
  });
});

describe('RedisStore: idempotency', () => {
  it('claims a key once across two instances at once, and completes it with the payment', async () => {
    const { a, b } = await twoInstances();
    const [onA, onB] = await Promise.all([a.open(KEY), b.open(KEY)]);
    const recordA = inFlightRecord('order-1', 'a');
    const recordB = inFlightRecord('order-1', 'b');
    const claims = await Promise.all([
      onA.claimIdempotencyKey(recordA, 0),
      onB.claimIdempotencyKey(recordB, 0),
    ]);
    expect(claims.filter((claim) => claim === undefined)).toHaveLength(1);
    const winner =
      claims[0] === undefined
        ? { account: onA, record: recordA }
        : { account: onB, record: recordB };
    const loser = claims[0] === undefined ? claims[1] : claims[0];
    expect(loser?.bodyFingerprint).toBe(winner.record.bodyFingerprint);
    expect(loser?.response).toBeUndefined();
    const created = paymentRecord('pay_1');
    const response = jsonResponse(201, created.json);
    await winner.account.createPayment(created, { record: winner.record, response });
    expect(winner.record.response).toEqual(response);
    const replay = await onA.claimIdempotencyKey(inFlightRecord('order-1', 'c'), 1);
    expect(replay?.response).toEqual(response);
    expect((await onB.idempotencyRecord('order-1'))?.response).toEqual(response);
    // Expired on the key's clock: free again.
    expect(
      await onB.claimIdempotencyKey(inFlightRecord('order-1', 'd', 2000), 1000),
    ).toBeUndefined();
    expect((await onA.idempotencyRecord('order-1'))?.bodyFingerprint).toBe('d');
    expect((await a.stats()).idempotencyRecords).toBe(1);
  });

  // Heartbeats run on the injected clock; each instance's own timer beats every third of a
  // lease of real time, so a lease of 10 minutes leaves the beats to the test.
  const LEASE_MS = 600_000;

  it("takes over a key held in flight by an instance that died (no heartbeat), never a live one's", async () => {
    const clock = { now: 1_000_000 };
    const { a, b } = await twoInstances({ clock: () => clock.now, leaseMs: LEASE_MS });
    const [onA, onB] = await Promise.all([a.open(KEY), b.open(KEY)]);
    const taken = inFlightRecord('order-1', 'a');
    expect(await onA.claimIdempotencyKey(taken, 0)).toBeUndefined();
    // A is alive (its last beat was less than a lease ago): the key stays in use.
    clock.now += LEASE_MS - 1000;
    expect(
      (await onB.claimIdempotencyKey(inFlightRecord('order-1', 'b'), 0))?.bodyFingerprint,
    ).toBe('a');
    await a.beat();
    clock.now += LEASE_MS - 1000;
    expect(await onB.claimIdempotencyKey(inFlightRecord('order-1', 'b'), 0)).toBeDefined();
    // A stops beating (killed, or stalled): a lease after its last beat, B takes the key over.
    clock.now += 1001;
    const retry = inFlightRecord('order-1', 'b');
    expect(await onB.claimIdempotencyKey(retry, 0)).toBeUndefined();
    expect((await onA.idempotencyRecord('order-1'))?.bodyFingerprint).toBe('b');
    expect((await a.stats()).idempotencyRecords).toBe(1);
    // A was only stalled: its create is refused (503, nothing made); B's is made and answered.
    const response = jsonResponse(201, paymentRecord('pay_b').json);
    await expect(
      onA.createPayment(paymentRecord('pay_a'), {
        record: taken,
        response: jsonResponse(201, '{}'),
      }),
    ).rejects.toThrow(/another instance/);
    await onB.createPayment(paymentRecord('pay_b'), { record: retry, response });
    expect((await onA.listPayments(10))?.data.map((payment) => payment.id)).toEqual(['pay_b']);
    expect((await onA.claimIdempotencyKey(inFlightRecord('order-1', 'b'), 0))?.response).toEqual(
      response,
    );
  });

  it('frees the keys in flight of an instance closed cleanly at once, never an answered key', async () => {
    const clock = { now: 1_000_000 };
    const { a, b } = await twoInstances({ clock: () => clock.now, leaseMs: LEASE_MS });
    const [onA, onB] = await Promise.all([a.open(KEY), b.open(KEY)]);
    const answered = inFlightRecord('order-2', 'a');
    await onA.claimIdempotencyKey(answered, 0);
    const response = jsonResponse(201, paymentRecord('pay_1').json);
    await onA.createPayment(paymentRecord('pay_1'), { record: answered, response });
    await onA.claimIdempotencyKey(inFlightRecord('order-3', 'a'), 0);
    await a.close();
    expect(await onB.claimIdempotencyKey(inFlightRecord('order-3', 'b'), 0)).toBeUndefined();
    clock.now += 10 * LEASE_MS;
    expect((await onB.claimIdempotencyKey(inFlightRecord('order-2', 'a'), 0))?.response).toEqual(
      response,
    );
  });

  it('completes, forgets and lists records; a stale completion changes nothing', async () => {
    const { a } = await twoInstances();
    const account = await a.open(KEY);
    const first = inFlightRecord('k1', 'x');
    const second = inFlightRecord('k2', 'y');
    await account.claimIdempotencyKey(first, 0);
    await account.claimIdempotencyKey(second, 0);
    await account.completeIdempotencyRecord(first, jsonResponse(200, '{}'));
    expect((await account.listIdempotencyRecords()).map((record) => record.key)).toEqual([
      'k1',
      'k2',
    ]);
    await account.forgetIdempotencyRecord(second);
    expect(await account.idempotencyRecord('k2')).toBeUndefined();
    // A record taken over by another request meanwhile is not completed by the old one.
    const other = inFlightRecord('k2', 'z');
    await account.claimIdempotencyKey(other, 0);
    await account.completeIdempotencyRecord(second, jsonResponse(201, '{"stale":true}'));
    expect((await account.idempotencyRecord('k2'))?.response).toBeUndefined();
    await account.expireIdempotencyRecords(1000);
    expect(await account.listIdempotencyRecords()).toEqual([]);
    expect((await a.stats()).idempotencyRecords).toBe(0);
  });

  it('sweeps records expired on the server clock in every account, fleet-wide', async () => {
    const { a, b } = await twoInstances();
    await (await a.open('sk_test_sweep_1')).claimIdempotencyKey(inFlightRecord('k', 'x', 100), 0);
    await (await a.open('sk_test_sweep_2')).claimIdempotencyKey(inFlightRecord('k', 'x', 300), 0);
    expect(await b.sweepNow(200)).toBe(1);
    expect(await must(await b.find('sk_test_sweep_1')).idempotencyRecord('k')).toBeUndefined();
    expect(await must(await b.find('sk_test_sweep_2')).idempotencyRecord('k')).toBeDefined();
    expect((await a.stats()).idempotencyRecords).toBe(1);
  });
});

describe('RedisStore: budgets, caps and reset across the fleet', () => {
  it('keeps a key under its payment cap and byte budget whichever instance writes', async () => {
    const limits = { ...ROOMY_LIMITS, maxPaymentsPerKey: 5 };
    const { a, b } = await twoInstances({ limits });
    const [onA, onB] = await Promise.all([a.open(KEY), b.open(KEY)]);
    for (let index = 0; index < 12; index++) {
      await (index % 2 === 0 ? onA : onB).createPayment(paymentRecord(`pay_${index}`));
    }
    const ids = [...(await onB.storedPayments())].map((p) => p.id);
    expect(ids).toEqual(['pay_7', 'pay_8', 'pay_9', 'pay_10', 'pay_11']);
    expect((await a.stats()).payments).toBe(5);

    const tight = { ...ROOMY_LIMITS, keyMemoryBudgetBytes: 2048 + 3 * 900 };
    const { a: c, b: d } = await twoInstances({ limits: tight });
    const [onC, onD] = await Promise.all([c.open(KEY), d.open(KEY)]);
    for (let index = 0; index < 10; index++) {
      await (index % 2 === 0 ? onC : onD).createPayment(paymentRecord(`pay_${index}`));
    }
    const kept = [...(await onD.storedPayments())];
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.length).toBeLessThan(10);
    expect(kept.at(-1)?.id).toBe('pay_9');
    const stats = await c.stats();
    expect(stats.bytes).toBeLessThanOrEqual(tight.keyMemoryBudgetBytes);
    expect(stats.payments).toBe(kept.length);
  });

  it('refuses new work on every instance once the fleet is over a total cap or its byte budget', async () => {
    const limits = { ...ROOMY_LIMITS, maxPaymentsTotal: 4 };
    const { a, b } = await twoInstances({ limits });
    const onA = await a.open('sk_test_total_1');
    const onB = await b.open('sk_test_total_2');
    for (let index = 0; index < 2; index++) {
      expect(await a.admit()).toBe(true);
      await onA.createPayment(paymentRecord(`pay_a${index}`));
      expect(await b.admit()).toBe(true);
      await onB.createPayment(paymentRecord(`pay_b${index}`));
    }
    expect(await a.admit()).toBe(false);
    expect(await b.admit()).toBe(false);
    expect(await b.reset('sk_test_total_1')).toBe(2);
    expect(await a.admit()).toBe(true);
    const bytesLeft = (await a.stats()).bytes;
    const small = { ...ROOMY_LIMITS, memoryBudgetBytes: bytesLeft };
    const { a: c } = await twoInstances({ limits: small });
    // A new prefix starts empty: the byte budget is per prefix.
    expect(await c.admit()).toBe(true);
  });

  it('resets a key everywhere: handles elsewhere close, nothing of it is left', async () => {
    const { a, b, prefix } = await twoInstances();
    const onA = await a.open(KEY);
    await onA.createPayment(paymentRecord('pay_1', { status: 'PENDING' }, 100));
    await onA.claimIdempotencyKey(inFlightRecord('k', 'x'), 0);
    await onA.setFaults({ latency_ms: 10 });
    await onA.setOffset(60);
    await onA.webhookState().rememberEvent({ id: 'evt_1', type: 'payment.succeeded', body: '{}' });
    await onA.recordRequest(requestEntry('req_1'));
    expect(await b.reset(KEY)).toBe(1);
    expect(await b.reset(KEY)).toBe(0);
    expect(await a.find(KEY)).toBeUndefined();
    expect(onA.closed).toBe(true);
    // A late write through the old handle changes nothing.
    await onA.createPayment(paymentRecord('pay_late'));
    expect(await a.find(KEY)).toBeUndefined();
    const left = (await a.client.keys(`${prefix}*`)).filter(
      (key) => !/(format|gen|totals|alive|:reset)$/.test(key),
    );
    expect(left).toEqual([]);
    expect(await a.stats()).toEqual({ payments: 0, idempotencyRecords: 0, bytes: 0 });
  });

  it('keeps the clock, faults and request log of a key on every instance', async () => {
    const { a, b } = await twoInstances();
    const onA = await a.open(KEY);
    await onA.setOffset(3600);
    await onA.setFaults({ fail_next: { count: 2, status: 503 }, drop_after_commit: { count: 1 } });
    const onB = must(await b.find(KEY));
    expect(onB.offsetSeconds).toBe(3600);
    expect(onB.now(0)).toBe(3_600_000);
    const failures = await Promise.all([onA.consumeFailure(), onB.consumeFailure()]);
    expect(failures.map((failure) => failure?.code)).toEqual([
      'service_unavailable',
      'service_unavailable',
    ]);
    const again = must(await a.find(KEY));
    expect(again.faults).toEqual({ drop_after_commit: { count: 1 } });
    expect(await again.consumeFailure()).toBeUndefined();
    const drops = await Promise.all([onA.consumeDrop(), must(await b.find(KEY)).consumeDrop()]);
    expect(drops.filter(Boolean)).toHaveLength(1);
    for (let index = 0; index < 60; index++) {
      await (index % 2 ? onA : onB).recordRequest(requestEntry(`req_${index}`, index));
    }
    const log = await onB.recentRequests();
    expect(log).toHaveLength(50);
    expect(log[0]?.requestId).toBe('req_59');
  });

  it('forgets an account that holds nothing on release; a write in flight recreates it', async () => {
    const { a, b } = await twoInstances();
    // Two first requests of a new key at once: one ends without writing and releases the
    // account, the other then writes through the handle it opened.
    const writer = await a.open(KEY);
    const idle = await b.open(KEY);
    await b.release(idle);
    expect(await b.find(KEY)).toBeUndefined();
    expect(writer.closed).toBe(false);
    await writer.createPayment(paymentRecord('pay_1'));
    expect((await (await b.find(KEY))?.payment('pay_1'))?.id).toBe('pay_1');
    await b.release(idle);
    expect(await b.find(KEY)).toBeDefined();
    expect(await a.stats()).toMatchObject({ payments: 1 });
    // A released handle that writes nothing leaves nothing behind.
    const other = await a.open('sk_test_release_2');
    await a.release(other);
    await other.takeDueSettlements(0);
    expect(await a.find('sk_test_release_2')).toBeUndefined();
  });
});

describe('RedisStore: the format marker', () => {
  it('refuses a prefix written by another format version, with a clear message', async () => {
    const client = await createRedisClient(redis.url);
    await client.connect();
    await client.set('other:format', '2');
    const opening = RedisStore.connect(await createRedisClient(redis.url), {
      limits: ROOMY_LIMITS,
      checks: RECORD_CHECKS,
      prefix: 'other:',
      where: 'redis://127.0.0.1',
    });
    await expect(opening).rejects.toBeInstanceOf(StoreFormatError);
    await expect(opening).rejects.toThrow(/"other:".*store format 2, not 1/);
    // Data under another prefix is never read as ours.
    const { a } = await twoInstances();
    expect(await a.find(KEY)).toBeUndefined();
    await client.quit();
  });
});

describe('RedisStore: the fast paths', () => {
  it('opens and claims in one call; skips the claim when the offset moved or a fault is armed', async () => {
    const made = await fleet(redis.url, 3);
    closers.push(made.close);
    const [a, b, c] = made.stores as [RedisStore, RedisStore, RedisStore];
    // Never seen on this instance (nor anywhere): its clock offset is taken to be 0, as it is.
    const claimed = await a.openAhead(
      KEY,
      0,
      (now) => inFlightRecord('k1', 'x', now + 1000),
      undefined,
    );
    expect(claimed.claim).toMatchObject({
      kind: 'claimed',
      record: { key: 'k1', expiresAt: 1000 },
    });
    expect((await claimed.account.idempotencyRecord('k1'))?.key).toBe('k1');
    // The same key from another instance, at once: one holds it.
    await b.open(KEY);
    const [fromA, fromB] = await Promise.all([
      a.openAhead(KEY, 0, (now) => inFlightRecord('k2', 'x', now + 1000), undefined),
      b.openAhead(KEY, 0, (now) => inFlightRecord('k2', 'y', now + 1000), undefined),
    ]);
    expect([fromA.claim.kind, fromB.claim.kind].sort()).toEqual(['claimed', 'held']);
    expect((await a.stats()).idempotencyRecords).toBe(2);
    // The key's clock moved on another instance: the offset this one knew is stale.
    await (await b.open(KEY)).setOffset(60);
    const stale = await a.openAhead(
      KEY,
      0,
      (now) => inFlightRecord('k3', 'x', now + 1000),
      undefined,
    );
    expect(stale.claim.kind).toBe('skipped');
    expect(stale.account.offsetSeconds).toBe(60);
    // An instance that never saw the key takes its offset to be 0: skipped as well.
    const unseen = await c.openAhead(
      KEY,
      0,
      (now) => inFlightRecord('k3', 'x', now + 1000),
      undefined,
    );
    expect(unseen.claim.kind).toBe('skipped');
    expect(await unseen.account.idempotencyRecord('k3')).toBeUndefined();
    const fresh = await a.openAhead(
      KEY,
      0,
      (now) => inFlightRecord('k3', 'x', now + 1000),
      undefined,
    );
    expect(fresh.claim).toMatchObject({ kind: 'claimed', record: { expiresAt: 61_000 } });
    await fresh.account.setFaults({ fail_next: { count: 1, status: 500 } });
    const faulted = await a.openAhead(
      KEY,
      0,
      (now) => inFlightRecord('k4', 'x', now + 1000),
      undefined,
    );
    expect(faulted.claim.kind).toBe('skipped');
    expect(await faulted.account.idempotencyRecord('k4')).toBeUndefined();
  });

  it('opens with one payment read in the same call', async () => {
    const { a, b } = await twoInstances();
    await (await a.open(KEY)).createPayment(paymentRecord('pay_1'));
    const read = await b.openAhead(KEY, 0, undefined, 'pay_1');
    expect(read.claim.kind).toBe('skipped');
    expect(read.payment?.payment.id).toBe('pay_1');
    expect((await b.openAhead(KEY, 0, undefined, 'pay_2')).payment).toBeUndefined();
    const both = await b.openAhead(KEY, 0, (now) => inFlightRecord('k5', 'x', now + 1000), 'pay_1');
    expect(both.claim.kind).toBe('claimed');
    expect(both.payment?.id).toBe('pay_1');
  });

  it('reads with the account whether it keeps data and when its next payment settles', async () => {
    const { a, b } = await twoInstances();
    const fresh = await a.open(KEY);
    expect(fresh.kept).toBe(false);
    expect(fresh.settlesNext).toBeUndefined();
    await fresh.createPayment({ ...paymentRecord('pay_1'), settlesAt: 5000 });
    // Made here: known at once.
    expect(fresh.kept).toBe(true);
    expect(fresh.settlesNext).toBe(5000);
    // Made on another instance: read with the account.
    const other = await b.open(KEY);
    expect(other.kept).toBe(true);
    expect(other.settlesNext).toBe(5000);
    await other.createPayment({ ...paymentRecord('pay_2'), settlesAt: 3000 });
    expect((await a.find(KEY))?.settlesNext).toBe(3000);
    expect(await (await a.find(KEY))?.takeDueSettlements(3000)).toHaveLength(1);
    expect((await b.find(KEY))?.settlesNext).toBe(5000);
  });

  it('finds an account with one payment in one call', async () => {
    const { a, b } = await twoInstances();
    expect(await b.findWithPayment(KEY, 'pay_1')).toEqual({
      account: undefined,
      payment: undefined,
    });
    await (await a.open(KEY)).createPayment(paymentRecord('pay_1'));
    const found = await b.findWithPayment(KEY, 'pay_1');
    expect(found.payment?.payment.id).toBe('pay_1');
    expect(found.account?.offsetSeconds).toBe(0);
    const missing = await b.findWithPayment(KEY, 'pay_2');
    expect(missing.account).toBeDefined();
    expect(missing.payment).toBeUndefined();
  });
});

describe('RedisStore: idle keys', () => {
  it('counts an account a late write recreated as used: it goes when idle, as any other', async () => {
    const limits = { ...ROOMY_LIMITS, maxAccounts: 1, idleMs: 0 };
    const made = await fleet(redis.url, 2, { limits });
    closers.push(made.close);
    const [a, b] = made.stores as [RedisStore, RedisStore];
    // A request of a new key that made nothing (a 404 capture): its account is released, then
    // the inspector's record of the request, written through the request's handle, recreates it.
    const released = await a.open('sk_test_recreated_1');
    await a.release(released);
    await released.recordRequest({
      requestId: 'req_1',
      method: 'POST',
      path: '/v1/payments/pay_1/capture',
      status: 404,
      code: 'not_found',
      latencyMs: 1,
      receivedAt: 0,
      requestBody: '{}',
      responseBody: null,
      truncated: false,
    });
    // A new key beyond maxAccounts forgets the idle ones: the recreated one too, not kept for ever.
    await b.open('sk_test_recreated_2');
    expect(await a.find('sk_test_recreated_1')).toBeUndefined();
  });

  it('forgets idle keys, least recently used first, when the fleet is full; never an active one', async () => {
    const clock = { now: 0 };
    const limits = { ...ROOMY_LIMITS, maxPaymentsTotal: 3, idleMs: 60_000 };
    const made = await fleet(redis.url, 2, { limits, clock: () => clock.now });
    closers.push(made.close);
    const [a, b] = made.stores as [RedisStore, RedisStore];
    await (await a.open('sk_test_idle_1')).createPayment(paymentRecord('pay_1'));
    clock.now = 10_000;
    await (await b.open('sk_test_idle_2')).createPayment(paymentRecord('pay_2'));
    clock.now = 20_000;
    await (await a.open('sk_test_idle_3')).createPayment(paymentRecord('pay_3'));
    // Full, and nobody idle yet.
    clock.now = 50_000;
    expect(await b.admit()).toBe(false);
    // Key 1 is idle now; key 2 was used on another instance meanwhile (a read counts).
    clock.now = 70_000;
    await a.find('sk_test_idle_2');
    clock.now = 75_000;
    expect(await b.admit()).toBe(true);
    expect(await a.find('sk_test_idle_1')).toBeUndefined();
    expect(await a.find('sk_test_idle_2')).toBeDefined();
    expect(await a.find('sk_test_idle_3')).toBeDefined();
  });

  it('keeps at most maxAccounts keys: a new key makes idle ones go, logged; never an active one', async () => {
    const clock = { now: 0 };
    const logged: string[] = [];
    const limits = { ...ROOMY_LIMITS, maxAccounts: 2, idleMs: 60_000 };
    const made = await fleet(redis.url, 2, {
      limits,
      clock: () => clock.now,
      log: (line) => logged.push(line),
    });
    closers.push(made.close);
    const [a, b] = made.stores as [RedisStore, RedisStore];
    await a.open('sk_test_max_1');
    clock.now = 10_000;
    await b.open('sk_test_max_2');
    clock.now = 30_000;
    // Nobody idle: the new key is kept beyond the cap, as the memory store does.
    await a.open('sk_test_max_3');
    expect(await a.find('sk_test_max_1')).toBeDefined();
    clock.now = 200_000;
    await b.find('sk_test_max_3');
    await b.open('sk_test_max_4');
    expect(await a.find('sk_test_max_1')).toBeUndefined();
    expect(await a.find('sk_test_max_2')).toBeUndefined();
    expect(await a.find('sk_test_max_3')).toBeDefined();
    expect(await a.find('sk_test_max_4')).toBeDefined();
    expect(logged).toEqual([
      'sandbox: forgot an idle key (unused for over 1 min, 2048 bytes) to make room',
      'sandbox: forgot an idle key (unused for over 1 min, 2048 bytes) to make room',
    ]);
  });
});
