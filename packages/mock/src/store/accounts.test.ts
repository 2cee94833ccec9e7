import type { components } from '@payment-service/openapi';
import { describe, expect, it } from 'vitest';

type Payment = components['schemas']['Payment'];

import type { IdempotencyRecord } from './account.js';
import { AccountStore } from './accounts.js';

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
    bodyHash: 'h',
    expiresAt,
    serverExpiresAt: expiresAt,
  };
}

const success = 'tok_test_success';

describe('AccountStore', () => {
  const limits = {
    maxPaymentsPerKey: 3,
    maxPaymentsTotal: 5,
    maxIdempotencyRecordsPerKey: 2,
    maxIdempotencyRecordsTotal: 3,
    maxAccounts: 3,
  };

  it('evicts the oldest payment of a key beyond maxPaymentsPerKey', () => {
    const store = new AccountStore(limits);
    const account = store.open('sk_test_a');
    const ids = Array.from(
      { length: 5 },
      () => store.addPayment(account, payment(), success).payment.id,
    );
    expect([...account.payments.keys()]).toEqual(ids.slice(2));
    expect(account.listPayments(10)?.data.map((p) => p.id)).toEqual(ids.slice(2).reverse());
    expect(store.stats().payments).toBe(3);
  });

  it('evicts the oldest payment overall beyond maxPaymentsTotal and drops emptied accounts', () => {
    const store = new AccountStore({ ...limits, maxAccounts: 10 });
    const a = store.open('sk_test_a');
    const b = store.open('sk_test_b');
    store.addPayment(a, payment(), success);
    for (let index = 0; index < 3; index++) store.addPayment(b, payment(), success);
    const c = store.open('sk_test_c');
    store.addPayment(c, payment(), success);
    store.addPayment(c, payment(), success); // total 6 > 5: a's only payment goes
    expect(store.stats()).toEqual({ accounts: 2, payments: 5, idempotencyRecords: 0 });
    expect(store.find('sk_test_a')).toBeUndefined();
    expect(a.closed).toBe(true);
  });

  it('pages correctly after evictions', () => {
    const store = new AccountStore({ ...limits, maxPaymentsPerKey: 2000, maxPaymentsTotal: 2000 });
    const account = store.open('sk_test_a');
    const ids: string[] = [];
    for (let index = 0; index < 3000; index++) {
      ids.push(store.addPayment(account, payment(), success).payment.id);
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

  it('caps idempotency records per key and in total, oldest first', () => {
    const store = new AccountStore(limits);
    const a = store.open('sk_test_a');
    store.addIdempotencyRecord(a, record('1', 100));
    store.addIdempotencyRecord(a, record('2', 100));
    store.addIdempotencyRecord(a, record('3', 100));
    expect([...a.idempotencyRecords.keys()]).toEqual(['2', '3']);
    const b = store.open('sk_test_b');
    store.addIdempotencyRecord(b, record('x', 100));
    store.addIdempotencyRecord(b, record('y', 100));
    expect(store.stats().idempotencyRecords).toBe(3);
    expect([...a.idempotencyRecords.keys()]).toEqual(['3']);
  });

  it('forgets the least recently used account beyond maxAccounts', () => {
    const store = new AccountStore(limits);
    const a = store.open('sk_test_a');
    store.addPayment(a, payment(), success);
    store.open('sk_test_b').offsetSeconds = 1;
    store.open('sk_test_c').offsetSeconds = 1;
    store.find('sk_test_a'); // a is now the most recently used
    store.open('sk_test_d');
    expect(store.find('sk_test_b')).toBeUndefined();
    expect(store.find('sk_test_a')).toBe(a); // used again: order is now c, d, a
    for (const key of ['sk_test_e', 'sk_test_f', 'sk_test_g']) store.open(key);
    expect(store.find('sk_test_a')).toBeUndefined();
    expect(a.closed).toBe(true);
    expect(store.stats()).toEqual({ accounts: 3, payments: 0, idempotencyRecords: 0 });
  });

  it('sweeps expired records of idle accounts and drops the empty accounts', () => {
    const store = new AccountStore(limits);
    const a = store.open('sk_test_a');
    store.addIdempotencyRecord(a, record('1', 100));
    store.sweep(99);
    expect(store.stats().idempotencyRecords).toBe(1);
    store.sweep(100);
    expect(store.stats()).toEqual({ accounts: 0, payments: 0, idempotencyRecords: 0 });
  });

  it('reset deletes everything of the key and forgets the account', () => {
    const store = new AccountStore(limits);
    const a = store.open('sk_test_a');
    store.addPayment(a, payment(), success);
    store.addIdempotencyRecord(a, record('1', 100));
    a.offsetSeconds = 10;
    expect(store.reset('sk_test_a')).toBe(1);
    expect(store.stats()).toEqual({ accounts: 0, payments: 0, idempotencyRecords: 0 });
    expect(store.reset('sk_test_a')).toBe(0);
  });
});
