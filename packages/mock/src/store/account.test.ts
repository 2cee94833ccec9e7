import type { components } from '@payment-service/openapi';
import { describe, expect, it } from 'vitest';
import { Account } from './account.js';
import { stringBytes } from './memory.js';

type Payment = components['schemas']['Payment'];

function payment(id: string): Payment {
  return {
    id,
    object: 'payment',
    status: 'AUTHORIZED',
    amount: 1000,
    currency: 'KZT',
    created_at: '2025-01-01T00:00:00Z',
    capture: false,
    description: null,
    amount_captured: 0,
    amount_refunded: 0,
    failure_code: null,
    failure_message: null,
  };
}

describe("a stored payment's JSON", () => {
  it('is serialized once, counted in the bytes, and dropped when the payment changes', () => {
    let bytes = 0;
    const account = new Account({
      keyBudgetBytes: Number.POSITIVE_INFINITY,
      onBytes: (delta) => {
        bytes += delta;
      },
      canHold: () => true,
    });
    const stored = account.addPayment(payment('pay_1'), 'tok_test_success', 0);
    const before = bytes;
    const json = account.paymentJson(stored);
    expect(JSON.parse(json)).toEqual(stored.payment);
    expect(account.paymentJson(stored)).toBe(json);
    expect(bytes - before).toBe(stringBytes(json));

    stored.payment.status = 'SUCCEEDED';
    account.recordChange(stored, { at: 1, change: 'captured', status: 'SUCCEEDED', amount: 1000 });
    expect(stored.json).toBeUndefined();
    expect(JSON.parse(account.paymentJson(stored)).status).toBe('SUCCEEDED');
  });

  it('is not kept for a payment the account does not hold', () => {
    const account = new Account();
    const other = new Account().addPayment(payment('pay_2'), 'tok_test_success', 0);
    expect(JSON.parse(account.paymentJson(other)).id).toBe('pay_2');
    expect(other.json).toBeUndefined();
  });

  it("is not kept when it would pass the key's budget or the store's", () => {
    for (const meter of [
      { keyBudgetBytes: 1, onBytes() {}, canHold: () => true },
      { keyBudgetBytes: Number.POSITIVE_INFINITY, onBytes() {}, canHold: () => false },
    ]) {
      const account = new Account(meter);
      const stored = account.addPayment(payment('pay_3'), 'tok_test_success', 0);
      const bytes = account.bytes;
      expect(JSON.parse(account.paymentJson(stored)).id).toBe('pay_3');
      expect(stored.json).toBeUndefined();
      expect(account.bytes).toBe(bytes);
    }
  });
});
