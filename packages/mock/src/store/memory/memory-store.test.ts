import type { components } from '@payment-service/openapi';
import { describe, expect, it } from 'vitest';

type Payment = components['schemas']['Payment'];

import { type IdempotencyRecord, jsonResponse } from '../records.js';
import { MemoryStore } from './memory-store.js';

let counter = 0;
function payment(): Payment {
  counter++;
  return {
    id: `pay_${counter}`,
    object: 'payment',
    status: 'SUCCEEDED',
    amount: counter,
    currency: 'KZT',
    created_at: '2025-01-01T00:00:00Z',
    capture: true,
    description: null,
    amount_captured: counter,
    amount_refunded: 0,
    failure_code: null,
    failure_message: null,
  };
}

function record(key: string, expiresAt: number): IdempotencyRecord {
  return {
    key,
    method: 'POST',
    path: '/v1/payments',
    bodyFingerprint: 'h',
    expiresAt,
    serverExpiresAt: expiresAt,
  };
}

const success = 'tok_test_success';

describe('MemoryStore', () => {
  const limits = {
    maxPaymentsPerKey: 3,
    maxPaymentsTotal: 5,
    maxIdempotencyRecordsPerKey: 2,
    maxIdempotencyRecordsTotal: 3,
    maxAccounts: 3,
    memoryBudgetBytes: 1 << 30,
    keyMemoryBudgetBytes: 1 << 26,
    idleMs: 3_600_000,
  };
  /** A store on a manual clock, with its eviction log. */
  function storeWith(overrides: Partial<typeof limits> = {}) {
    const lines: string[] = [];
    const store = new MemoryStore({ ...limits, ...overrides }, { log: (line) => lines.push(line) });
    // The server's time moves when a request starts (sweep), as in the runtime.
    const clock = {
      set now(serverNow: number) {
        store.sweep(serverNow);
      },
    };
    return { store, clock, lines };
  }

  it('evicts the oldest payment of a key beyond maxPaymentsPerKey', () => {
    const { store } = storeWith();
    const account = store.open('sk_test_a');
    const ids = Array.from(
      { length: 5 },
      () => store.addPayment(account, payment(), success, 0).payment.id,
    );
    expect([...account.payments.keys()]).toEqual(ids.slice(2));
    expect(account.listPayments(10)?.data.map((p) => p.id)).toEqual(ids.slice(2).reverse());
    expect(store.stats().payments).toBe(3);
  });

  it('never takes another key’s payment: past maxPaymentsTotal it refuses new work instead', () => {
    const { store } = storeWith({ maxAccounts: 10 });
    const a = store.open('sk_test_a');
    const b = store.open('sk_test_b');
    store.addPayment(a, payment(), success, 0);
    for (let index = 0; index < 3; index++) store.addPayment(b, payment(), success, 0);
    expect(store.admit()).toBe(true);
    const c = store.open('sk_test_c');
    store.addPayment(c, payment(), success, 0);
    expect(store.admit()).toBe(false); // 5 payments: full
    expect(a.paymentCount).toBe(1);
    expect(store.find('sk_test_a')).toBe(a);
    store.reset('sk_test_b');
    expect(store.admit()).toBe(true);
  });

  it('pages correctly after evictions', () => {
    const { store } = storeWith({ maxPaymentsPerKey: 2000, maxPaymentsTotal: 2000 });
    const account = store.open('sk_test_a');
    const ids: string[] = [];
    for (let index = 0; index < 3000; index++) {
      ids.push(store.addPayment(account, payment(), success, 0).payment.id);
    }
    const kept = ids.slice(1000).reverse();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = account.listPayments(100, cursor);
      if (page === undefined) throw new Error('cursor lost');
      seen.push(...page.data.map((p) => p.id));
      if (!page.has_more) break;
      cursor = seen.at(-1);
    }
    expect(seen).toEqual(kept);
    expect(account.listPayments(10, ids[0])).toBeUndefined();
  });

  it('caps idempotency records per key, oldest first, and never takes another key’s', () => {
    const { store } = storeWith();
    const a = store.open('sk_test_a');
    store.addIdempotencyRecord(a, record('1', 100));
    store.addIdempotencyRecord(a, record('2', 100));
    store.addIdempotencyRecord(a, record('3', 100));
    expect([...a.idempotencyRecords.keys()]).toEqual(['2', '3']);
    const b = store.open('sk_test_b');
    store.addIdempotencyRecord(b, record('x', 100));
    store.addIdempotencyRecord(b, record('y', 100));
    expect([...a.idempotencyRecords.keys()]).toEqual(['2', '3']);
    expect(store.admit()).toBe(false); // 4 records over a total cap of 3
  });

  it('keeps a key within its byte budget by forgetting its own oldest records', () => {
    const { store } = storeWith({
      keyMemoryBudgetBytes: 64 * 1024,
      maxIdempotencyRecordsPerKey: 10_000,
    });
    const victim = store.open('sk_test_victim');
    store.addIdempotencyRecord(victim, record('mine', 100));
    const attacker = store.open('sk_test_attacker');
    for (let index = 0; index < 500; index++) {
      const long = { ...record(`k${index}`, 100), path: `/v1/payments/pay_${'x'.repeat(1500)}` };
      store.addIdempotencyRecord(attacker, long);
      store.completeIdempotencyRecord(attacker, long, {
        status: 404,
        headers: {},
        body: 'y'.repeat(200),
      });
    }
    expect(attacker.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(attacker.idempotencyRecords.has('k499')).toBe(true);
    expect(attacker.idempotencyRecords.has('k0')).toBe(false);
    expect([...victim.idempotencyRecords.keys()]).toEqual(['mine']);
    expect(store.stats().bytes).toBe(victim.bytes + attacker.bytes);
  });

  it('refuses new work past the memory budget, forgetting idle keys (logged) but never active ones', () => {
    const { store, clock, lines } = storeWith({
      memoryBudgetBytes: 256 * 1024,
      maxAccounts: 1_000,
      maxPaymentsTotal: 1e9,
    });
    const idle = store.open('sk_test_idle');
    store.addPayment(idle, payment(), success, 0);
    clock.now = 2 * 3_600_000;
    const keys: string[] = [];
    for (let index = 0; store.admit() && index < 10_000; index++) {
      keys.push(`sk_test_active${index}`);
      store.addPayment(store.open(`sk_test_active${index}`), payment(), success, 0);
    }
    expect(store.find('sk_test_idle')).toBeUndefined();
    expect(lines).toEqual([expect.stringMatching(/forgot an idle key/)]);
    expect(lines.join('')).not.toContain('sk_test');
    expect(store.admit()).toBe(false);
    for (const key of keys) expect(store.find(key)?.paymentCount).toBe(1);
    expect(store.stats().bytes).toBeGreaterThanOrEqual(256 * 1024);
  });

  it('forgets the least recently used account beyond maxAccounts only once it is idle', () => {
    const { store, clock } = storeWith();
    const a = store.open('sk_test_a');
    store.addPayment(a, payment(), success, 0);
    store.open('sk_test_b').offsetSeconds = 1;
    store.open('sk_test_c').offsetSeconds = 1;
    store.open('sk_test_d'); // none idle: all four are kept
    expect(store.stats().accounts).toBe(4);
    clock.now = 2 * 3_600_000;
    store.find('sk_test_a'); // a is used again: b, c, d are idle
    store.open('sk_test_e');
    expect(store.find('sk_test_b')).toBeUndefined();
    expect(store.find('sk_test_c')).toBeUndefined();
    expect(store.find('sk_test_a')).toBe(a);
    expect(store.stats().accounts).toBe(3);
  });

  it('sweeps expired records of idle accounts and drops the empty accounts', () => {
    const { store } = storeWith();
    const a = store.open('sk_test_a');
    store.addIdempotencyRecord(a, record('1', 100));
    store.sweep(99);
    expect(store.stats().idempotencyRecords).toBe(1);
    store.sweep(100);
    expect(store.stats()).toEqual({ accounts: 0, payments: 0, idempotencyRecords: 0, bytes: 0 });
  });

  it('reset deletes everything of the key and forgets the account', () => {
    const { store } = storeWith();
    const a = store.open('sk_test_a');
    store.addPayment(a, payment(), success, 0);
    store.addIdempotencyRecord(a, record('1', 100));
    a.offsetSeconds = 10;
    expect(store.reset('sk_test_a')).toBe(1);
    expect(store.stats()).toEqual({ accounts: 0, payments: 0, idempotencyRecords: 0, bytes: 0 });
    expect(store.reset('sk_test_a')).toBe(0);
  });

  it('holds an account under a name for a wrapper, renames it, and forgets one payment with its totals', () => {
    const { store } = storeWith({ maxAccounts: 1 });
    store.open('sk_test_a');
    // Beyond maxAccounts, holding forgets no account (none is idle-checked or marked used).
    const held = store.hold('restored:1');
    expect(store.hold('restored:1')).toBe(held);
    expect(store.stats().accounts).toBe(2);
    const stored = store.addPayment(held, payment(), success, 0);
    expect(store.rename('restored:1', 'sk_test_b')).toBe(held);
    expect(store.holds('restored:1')).toBe(false);
    expect(store.find('sk_test_b')).toBe(held);
    // No renaming onto a name in use.
    expect(store.rename('sk_test_b', 'sk_test_a')).toBeUndefined();
    const bytes = store.stats().bytes;
    store.removePayment(held, stored.id);
    expect(held.payment(stored.id)).toBeUndefined();
    expect(store.stats().payments).toBe(0);
    expect(store.stats().bytes).toBeLessThan(bytes);
  });

  it('tells its changes in order, and none of a closed account', () => {
    const told: string[] = [];
    /** Notes a change by its name and what it names: an id, a record's key, a value. */
    const named = (value: unknown) => {
      if (typeof value !== 'object' || value === null) return String(value);
      const { id, key } = value as { id?: string; key?: string };
      return id ?? key;
    };
    const note = (name: string) => (_account: unknown, value?: unknown) =>
      told.push(value === undefined ? name : `${name} ${named(value)}`);
    const store = new MemoryStore(limits, {
      changes: {
        accountOpened: note('opened'),
        paymentStored: note('stored'),
        paymentForgotten: note('forgotten'),
        recordAnswered: note('answered'),
        recordForgotten: note('record forgotten'),
        faultsSet: note('faults'),
        offsetSet: note('offset'),
        accountReset: note('reset'),
        accountDropped: note('dropped'),
        webhooksOf: () => {
          throw new Error('no webhooks in this test');
        },
      },
    });
    const account = store.open('sk_test_a');
    const ids = Array.from(
      { length: 4 },
      () => store.addPayment(account, payment(), success, 0).payment.id,
    );
    const claimed = record('k1', 10);
    account.claimIdempotencyKey(claimed, 0);
    account.completeIdempotencyRecord(claimed, { status: 201, headers: {}, body: '{}' });
    account.expireIdempotencyRecords(20);
    store.reset('sk_test_a');
    account.setOffset(5);
    expect(told).toEqual([
      'opened sk_test_a',
      `stored ${ids[0]}`,
      `stored ${ids[1]}`,
      `stored ${ids[2]}`,
      `forgotten ${ids[0]}`,
      `stored ${ids[3]}`,
      'answered k1',
      'record forgotten k1',
      'reset',
      'dropped',
    ]);
  });

  it('keeps an answer read back with the shared headers object, counting the same bytes', () => {
    const { store } = storeWith();
    const live = store.open('sk_test_live');
    const read = store.open('sk_test_read');
    const body = '{"id":"pay_1"}';
    const liveRecord = record('k', 100);
    const readRecord = record('k', 100);
    store.addIdempotencyRecord(live, liveRecord);
    store.addIdempotencyRecord(read, readRecord);
    store.completeIdempotencyRecord(live, liveRecord, jsonResponse(201, body));
    // As a journal line or a snapshot gives it: its own headers object.
    store.completeIdempotencyRecord(read, readRecord, {
      status: 201,
      headers: JSON.parse('{"content-type":"application/json"}'),
      body,
    });
    expect(readRecord.response).toEqual(liveRecord.response);
    expect(readRecord.response?.headers).toBe(liveRecord.response?.headers);
    expect(read.bytes).toBe(live.bytes);
    // A problem answer alone keeps its code; any other headers are kept as given.
    const problem = record('p', 100);
    store.addIdempotencyRecord(read, problem);
    const problemHeaders = { 'content-type': 'application/problem+json' };
    store.completeIdempotencyRecord(read, problem, {
      status: 402,
      headers: { ...problemHeaders },
      body: '{}',
      code: 'card_declined',
    });
    expect(problem.response).toEqual({
      status: 402,
      headers: problemHeaders,
      body: '{}',
      code: 'card_declined',
    });
    const other = record('o', 100);
    store.addIdempotencyRecord(live, other);
    const otherHeaders = { 'content-type': 'application/json', 'retry-after': '5' };
    store.completeIdempotencyRecord(live, other, {
      status: 409,
      headers: otherHeaders,
      body: '{}',
    });
    expect(other.response?.headers).toBe(otherHeaders);
  });
});
