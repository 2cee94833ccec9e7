import { describe, expect, it } from 'vitest';
import { TEST_TOKEN_BEHAVIOURS } from './tokens.js';
import {
  ALLOWED_ACTIONS,
  applyOutcome,
  cancelPayment,
  capturePayment,
  refundPayment,
  settlePendingPayment,
} from './transitions.js';
import type { Payment, PaymentStatus } from './types.js';

function payment(fields: Partial<Payment> = {}): Payment {
  return {
    id: 'pay_test',
    object: 'payment',
    status: 'PENDING',
    amount: 1000,
    currency: 'KZT',
    created_at: '2025-01-01T00:00:00Z',
    capture: true,
    description: null,
    amount_captured: 0,
    amount_refunded: 0,
    failure_code: null,
    failure_message: null,
    ...fields,
  };
}

const ALL_STATUSES: PaymentStatus[] = [
  'PENDING',
  'AUTHORIZED',
  'SUCCEEDED',
  'FAILED',
  'CANCELED',
  'REFUNDED',
];

describe('applyOutcome', () => {
  it('succeeds and captures in full with capture true', () => {
    const created = payment();
    applyOutcome(created, TEST_TOKEN_BEHAVIOURS.tok_test_success);
    expect(created).toMatchObject({ status: 'SUCCEEDED', amount_captured: 1000 });
  });

  it('authorizes with capture false', () => {
    const created = payment({ capture: false });
    applyOutcome(created, TEST_TOKEN_BEHAVIOURS.tok_test_success);
    expect(created).toMatchObject({ status: 'AUTHORIZED', amount_captured: 0 });
  });

  it('fails with the failure code and message', () => {
    const created = payment();
    applyOutcome(created, TEST_TOKEN_BEHAVIOURS.tok_test_insufficient_funds);
    expect(created.status).toBe('FAILED');
    expect(created.failure_code).toBe('insufficient_funds');
    expect(created.failure_message).toMatch(/insufficient funds/);
  });
});

describe('settlePendingPayment', () => {
  it('settles PENDING only', () => {
    const pending = payment();
    expect(settlePendingPayment(pending, TEST_TOKEN_BEHAVIOURS.tok_test_pending_declined)).toBe(
      true,
    );
    expect(pending.status).toBe('FAILED');
    expect(settlePendingPayment(pending, TEST_TOKEN_BEHAVIOURS.tok_test_pending)).toBe(false);
    expect(pending.status).toBe('FAILED');
  });
});

describe('capturePayment', () => {
  it('captures fully or partially from AUTHORIZED', () => {
    const full = payment({ status: 'AUTHORIZED', capture: false });
    expect(capturePayment(full).ok).toBe(true);
    expect(full).toMatchObject({ status: 'SUCCEEDED', amount_captured: 1000 });
    const partial = payment({ status: 'AUTHORIZED', capture: false });
    expect(capturePayment(partial, 400).ok).toBe(true);
    expect(partial).toMatchObject({ status: 'SUCCEEDED', amount_captured: 400 });
  });

  it('refuses more than the authorized amount', () => {
    const authorized = payment({ status: 'AUTHORIZED' });
    const result = capturePayment(authorized, 1001);
    expect(result.ok === false && result.problem).toMatchObject({
      code: 'invalid_request',
      param: 'amount',
    });
    expect(authorized.status).toBe('AUTHORIZED');
  });
});

describe('refundPayment', () => {
  it('refunds partially, then the rest, then refuses', () => {
    const succeeded = payment({ status: 'SUCCEEDED', amount_captured: 1000 });
    expect(refundPayment(succeeded, 300)).toEqual({ ok: true, value: 300 });
    expect(succeeded).toMatchObject({ status: 'SUCCEEDED', amount_refunded: 300 });
    const tooMuch = refundPayment(succeeded, 701);
    expect(tooMuch.ok === false && tooMuch.problem.param).toBe('amount');
    expect(refundPayment(succeeded)).toEqual({ ok: true, value: 700 });
    expect(succeeded).toMatchObject({ status: 'REFUNDED', amount_refunded: 1000 });
    const again = refundPayment(succeeded);
    expect(again.ok === false && again.problem.code).toBe('invalid_state');
  });

  it('refunds up to amount_captured after a partial capture', () => {
    const partial = payment({ status: 'SUCCEEDED', amount_captured: 400 });
    expect(refundPayment(partial)).toEqual({ ok: true, value: 400 });
    expect(partial.status).toBe('REFUNDED');
  });
});

describe('invalid transitions', () => {
  it('answers invalid_state naming the status and the allowed actions for every other pair', () => {
    const actions = {
      capture: (target: Payment) => capturePayment(target),
      cancel: (target: Payment) => cancelPayment(target),
      refund: (target: Payment) => refundPayment(target),
    };
    for (const status of ALL_STATUSES) {
      for (const [action, run] of Object.entries(actions)) {
        const target = payment({ status, amount_captured: status === 'SUCCEEDED' ? 1000 : 0 });
        const result = run(target);
        const allowed = (ALLOWED_ACTIONS[status] as readonly string[]).includes(action);
        expect(result.ok, `${action} from ${status}`).toBe(allowed);
        if (!result.ok) {
          expect(result.problem.code).toBe('invalid_state');
          expect(result.problem.detail).toContain(status);
          for (const allowedAction of ALLOWED_ACTIONS[status]) {
            expect(result.problem.detail).toContain(allowedAction);
          }
          expect(target.status).toBe(status);
          // The status it needs, with its article: "an AUTHORIZED", "a SUCCEEDED".
          expect(result.problem.detail).toMatch(
            action === 'refund'
              ? /refund needs a SUCCEEDED payment\./
              : new RegExp(`${action} needs an AUTHORIZED payment\\.`),
          );
        }
      }
    }
  });
});
