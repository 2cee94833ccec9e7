import type { components } from '@payment-service/openapi';
import { describe, expect, it } from 'vitest';
import { testPayment } from '../../test-support/payment.js';
import { ACCOUNT_BYTES, paymentBytes } from '../byte-sizes.js';
import { MAX_TIMELINE_STEPS, type PackedTimeline } from '../records.js';
import { Account } from './account.js';

type Payment = components['schemas']['Payment'];

const payment = (id: string): Payment => testPayment(id);

const record = (value: Payment) => ({
  id: value.id,
  json: JSON.stringify(value),
  token: 'tok_test_success',
  settlesAt: undefined,
  timeline: [0, value.status, value.amount, null] as PackedTimeline,
});

describe('a stored payment', () => {
  it('is kept as its JSON text, parsed into a fresh copy when read', () => {
    const account = new Account();
    const stored = account.insertPayment(record(payment('pay_1')));
    expect(JSON.parse(stored.json)).toEqual(payment('pay_1'));
    const copy = stored.payment;
    copy.status = 'CANCELED';
    expect(stored.payment.status).toBe('AUTHORIZED');
    expect(stored.timeline).toEqual([
      { at: 0, change: 'created', status: 'AUTHORIZED', amount: 1000 },
    ]);
  });

  it('takes a new state with its timeline step, counting the bytes it changed', () => {
    let bytes = 0;
    const account = new Account({
      keyBudgetBytes: Number.POSITIVE_INFINITY,
      onBytes: (delta) => {
        bytes += delta;
      },
      canHold: () => true,
    });
    const stored = account.insertPayment(record(payment('pay_2')));
    account.addBytes(paymentBytes(stored));
    const next = { ...stored.payment, status: 'SUCCEEDED' as const, amount_captured: 1000 };
    account.updatePayment(stored, next, {
      at: 5,
      change: 'captured',
      status: 'SUCCEEDED',
      amount: 1000,
    });
    expect(JSON.parse(stored.json)).toEqual(next);
    expect(stored.timeline.map((step) => step.change)).toEqual(['created', 'captured']);
    expect(bytes).toBe(ACCOUNT_BYTES + paymentBytes(stored));
  });

  it('keeps its creation and the latest steps after it', () => {
    const account = new Account();
    const stored = account.insertPayment(record(payment('pay_3')));
    for (let at = 1; at <= MAX_TIMELINE_STEPS + 10; at++) {
      account.updatePayment(stored, stored.payment, {
        at,
        change: 'refunded',
        status: 'AUTHORIZED',
        amount: 1,
      });
    }
    const steps = stored.timeline;
    expect(steps).toHaveLength(MAX_TIMELINE_STEPS);
    expect(steps[0]?.change).toBe('created');
    expect(steps[1]?.at).toBe(12);
    expect(steps.at(-1)?.at).toBe(MAX_TIMELINE_STEPS + 10);
  });
});
