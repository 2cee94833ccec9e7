// The store seam's atomic calls, written against the interface so that every store can run them.
import type { components } from '@payment-service/openapi';
import { describe, expect, it } from 'vitest';
import { asyncStore } from '../test-support/async-store.js';
import { testPayment } from '../test-support/payment.js';
import { MAX_ENDPOINTS_PER_KEY } from './limits.js';
import { MemorySeam } from './memory/memory-seam.js';
import { MemoryStore } from './memory/memory-store.js';
import { jsonResponse, type PackedTimeline, type PaymentRecord } from './records.js';
import type { SandboxStore } from './store.js';
import type { EndpointRecord } from './webhook-records.js';

type Payment = components['schemas']['Payment'];

const KEY = 'sk_test_store_seam_01';

function payment(id: string, status: Payment['status']): Payment {
  return testPayment(id, { status });
}

/** An in-flight record of a create with the Idempotency-Key `key`. */
function idempotencyRecord(key: string, bodyFingerprint: string) {
  return {
    key,
    method: 'POST',
    path: '/v1/payments',
    bodyFingerprint,
    expiresAt: 1000,
    serverExpiresAt: 1000,
  };
}

function paymentRecord(value: Payment, settlesAt?: number): PaymentRecord {
  const timeline: PackedTimeline = [0, value.status, value.amount, null];
  return {
    id: value.id,
    json: JSON.stringify(value),
    token: 'tok_test_success',
    settlesAt,
    timeline,
  };
}

const endpoint: EndpointRecord = {
  endpoint: {
    id: 'we_1',
    object: 'webhook_endpoint',
    url: 'http://127.0.0.1:9/hooks',
    events: null,
    status: 'enabled',
    created_at: '2025-01-01T00:00:00Z',
  },
  key: new Uint8Array(32),
};

/** The seam's atomic calls, for any store. */
function describeStore(name: string, makeStore: () => SandboxStore) {
  describe(`${name}: the atomic calls of the store seam`, () => {
    it('creates a payment together with the answer its Idempotency-Key replays', async () => {
      const account = await makeStore().open(KEY);
      const record = idempotencyRecord('order-1', 'h1');
      expect(await account.claimIdempotencyKey(record, 0)).toBeUndefined();
      const created = paymentRecord(payment('pay_1', 'SUCCEEDED'));
      const response = jsonResponse(201, created.json);
      await account.createPayment(created, { record, response });
      expect((await account.payment('pay_1'))?.json).toBe(created.json);
      expect((await account.idempotencyRecord('order-1'))?.response).toEqual(response);
    });

    it('claims an Idempotency-Key once: a second claim gets the first record and stores nothing', async () => {
      const account = await makeStore().open(KEY);
      const first = idempotencyRecord('k', 'a');
      const second = idempotencyRecord('k', 'b');
      expect(await account.claimIdempotencyKey(first, 0)).toBeUndefined();
      expect((await account.claimIdempotencyKey(second, 0))?.bodyFingerprint).toBe('a');
      // Expired on the key's clock: the key is free again.
      expect(await account.claimIdempotencyKey(second, 1000)).toBeUndefined();
      expect((await account.idempotencyRecord('k'))?.bodyFingerprint).toBe('b');
    });

    it('refuses a transition from a stale status, changing nothing; takes the current one', async () => {
      const account = await makeStore().open(KEY);
      const authorized = payment('pay_2', 'AUTHORIZED');
      await account.createPayment(paymentRecord(authorized));
      const readBefore = (await account.payment('pay_2'))?.json ?? '';
      const captured = { ...authorized, status: 'SUCCEEDED' as const, amount_captured: 1000 };
      const step = {
        at: 1,
        change: 'captured' as const,
        status: 'SUCCEEDED' as const,
        amount: 1000,
      };
      expect(await account.transitionPayment('pay_2', readBefore, captured, step)).toBe(true);
      // A second capture made from the same (now stale) read: refused.
      const canceled = { ...authorized, status: 'CANCELED' as const };
      const cancel = { at: 2, change: 'canceled' as const, status: 'CANCELED' as const, amount: 0 };
      expect(await account.transitionPayment('pay_2', readBefore, canceled, cancel)).toBe(false);
      const stored = await account.payment('pay_2');
      expect(stored?.payment.status).toBe('SUCCEEDED');
      expect(stored?.timeline.map((entry) => entry.change)).toEqual(['created', 'captured']);
      expect(await account.transitionPayment('pay_unknown', readBefore, canceled, cancel)).toBe(
        false,
      );
    });

    it('adds clock advances made at once, and none past the limit', async () => {
      const account = await makeStore().open(KEY);
      const sums = await Promise.all(
        [10, 10, 10].map((seconds) => account.advanceOffset(seconds, 100)),
      );
      expect(sums.sort()).toEqual([10, 20, 30]);
      expect(account.offsetSeconds).toBe(30);
      // Past the limit: the sum it would make, nothing changed.
      expect(await account.advanceOffset(71, 100)).toBe(101);
      expect(account.offsetSeconds).toBe(30);
      expect(await account.advanceOffset(70, 100)).toBe(100);
    });

    it('registers at most MAX_ENDPOINTS_PER_KEY endpoints, registrations at once included; a held one is still disabled', async () => {
      const state = (await makeStore().open(KEY)).webhookState();
      const records = Array.from({ length: MAX_ENDPOINTS_PER_KEY + 4 }, (_, index) => ({
        ...endpoint,
        endpoint: { ...endpoint.endpoint, id: `we_${index}` },
      }));
      const stored = await Promise.all(records.map((record) => state.saveEndpoint(record)));
      expect(stored.filter((saved) => saved === 'saved')).toHaveLength(MAX_ENDPOINTS_PER_KEY);
      expect(stored.filter((saved) => saved === 'at the cap')).toHaveLength(4);
      expect(await state.listEndpoints()).toHaveLength(MAX_ENDPOINTS_PER_KEY);
      const [first] = await state.listEndpoints();
      if (first === undefined) throw new Error('no endpoint stored');
      await state.disableEndpoint(first);
      expect((await state.endpointById(first.endpoint.id))?.endpoint.status).toBe('disabled');
    });

    it('refuses a new payment, endpoint or event whose id the key holds, changing nothing (a seed draws it again)', async () => {
      const account = await makeStore().open(KEY);
      const first = paymentRecord(payment('pay_held', 'AUTHORIZED'));
      await account.createPayment(first);
      const record = idempotencyRecord('again', 'h2');
      expect(await account.claimIdempotencyKey(record, 0)).toBeUndefined();
      const again = paymentRecord({ ...payment('pay_held', 'SUCCEEDED'), amount: 5 });
      const response = jsonResponse(201, again.json);
      expect(await account.createPayment(again, { record, response })).toBeUndefined();
      expect((await account.payment('pay_held'))?.json).toBe(first.json);
      expect((await account.listPayments(10))?.data.map((stored) => stored.id)).toEqual([
        'pay_held',
      ]);
      // The Idempotency-Key is still in flight: the create draws again and completes it.
      expect((await account.idempotencyRecord('again'))?.response).toBeUndefined();
      const drawn = paymentRecord(payment('pay_drawn', 'SUCCEEDED'));
      const answer = jsonResponse(201, drawn.json);
      expect((await account.createPayment(drawn, { record, response: answer }))?.id).toBe(
        'pay_drawn',
      );
      expect((await account.idempotencyRecord('again'))?.response).toEqual(answer);

      const state = account.webhookState();
      expect(await state.saveEndpoint(endpoint)).toBe('saved');
      const other = {
        endpoint: { ...endpoint.endpoint, url: 'http://127.0.0.1:9/other' },
        key: new Uint8Array(32).fill(7),
      };
      expect(await state.saveEndpoint(other)).toBe('id held');
      expect((await state.listEndpoints()).map((held) => held.endpoint.url)).toEqual([
        endpoint.endpoint.url,
      ]);
      const event = { id: 'evt_held', type: 'payment.succeeded' as const, body: '{"first":1}' };
      expect(await state.rememberEvent(event)).toBe(true);
      expect(await state.rememberEvent({ ...event, body: '{"second":2}' })).toBe(false);
      expect((await state.listEvents()).map((kept) => kept.body)).toEqual(['{"first":1}']);
    });

    it('hands a due settlement to one caller only', async () => {
      const account = await makeStore().open(KEY);
      await account.createPayment(paymentRecord(payment('pay_3', 'PENDING'), 500));
      expect(await account.takeDueSettlements(499)).toEqual([]);
      expect((await account.takeDueSettlements(500)).map((stored) => stored.id)).toEqual(['pay_3']);
      expect(await account.takeDueSettlements(500)).toEqual([]);
    });

    it('claims a due delivery attempt once, and none before it is due', async () => {
      const state = (await makeStore().open(KEY)).webhookState();
      await state.saveEndpoint(endpoint);
      const event = { id: 'evt_1', type: 'payment.succeeded' as const, body: '{}' };
      expect(await state.enqueue({ event, target: endpoint, attempt: 1, dueAt: 100 })).toBe(true);
      expect(await state.claimDueAttempt(99)).toBeUndefined();
      const claimed = await state.claimDueAttempt(100);
      expect(claimed?.event.id).toBe('evt_1');
      expect(await state.claimDueAttempt(100)).toBeUndefined();
      expect(await state.nextAttemptAt()).toBeUndefined();
    });
  });
}

function memoryStore(): MemoryStore {
  return new MemoryStore({
    maxPaymentsPerKey: 100,
    maxPaymentsTotal: 1000,
    maxIdempotencyRecordsPerKey: 100,
    maxIdempotencyRecordsTotal: 1000,
    maxAccounts: 10,
    memoryBudgetBytes: 1 << 24,
    keyMemoryBudgetBytes: 1 << 20,
    idleMs: 3_600_000,
  });
}

describeStore('MemoryStore', () => new MemorySeam(memoryStore()));
describeStore('an asynchronous store', () => asyncStore(memoryStore()));
