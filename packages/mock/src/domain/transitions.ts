// The payment state machine: every status change a payment can make, and nothing else.
import type { ProblemInit } from '../shared/problems.js';
import type { TokenBehaviour } from './tokens.js';
import type { Payment, PaymentStatus } from './types.js';

/** An action a client can ask for on an existing payment. */
export type PaymentAction = 'capture' | 'cancel' | 'refund';

/** Which client actions each status allows. PENDING settles by itself; the rest are final. */
export const ALLOWED_ACTIONS: Readonly<Record<PaymentStatus, readonly PaymentAction[]>> = {
  PENDING: [],
  AUTHORIZED: ['capture', 'cancel'],
  SUCCEEDED: ['refund'],
  FAILED: [],
  CANCELED: [],
  REFUNDED: [],
};

/** The status each action needs. */
const REQUIRED_STATUS: Readonly<Record<PaymentAction, PaymentStatus>> = {
  capture: 'AUTHORIZED',
  cancel: 'AUTHORIZED',
  refund: 'SUCCEEDED',
};

/** A change that was made, or the problem that prevented it. */
export type TransitionResult<T = undefined> =
  | { ok: true; value: T }
  | { ok: false; problem: ProblemInit };

/** A status with its article, as read aloud: `an AUTHORIZED`, `a SUCCEEDED`. */
function withArticle(status: PaymentStatus): string {
  return `${/^[AEIOU]/.test(status) ? 'an' : 'a'} ${status}`;
}

function invalidState(
  payment: Payment,
  action: PaymentAction,
): { ok: false; problem: ProblemInit } {
  const allowed = ALLOWED_ACTIONS[payment.status];
  const from =
    payment.status === 'PENDING'
      ? 'A PENDING payment allows no actions; it settles by itself after the settlement delay.'
      : allowed.length === 0
        ? `${payment.status} is final: no actions are allowed from it.`
        : `From ${payment.status} the allowed actions are: ${allowed.join(', ')}.`;
  return {
    ok: false,
    problem: {
      code: 'invalid_state',
      detail: `Payment ${payment.id} is ${payment.status}; ${action} needs ${withArticle(REQUIRED_STATUS[action])} payment. ${from}`,
    },
  };
}

function amountProblem(detail: string): { ok: false; problem: ProblemInit } {
  return {
    ok: false,
    problem: {
      code: 'invalid_request',
      detail,
      param: 'amount',
      errors: [{ param: 'amount', code: 'maximum', message: detail }],
    },
  };
}

/**
 * Applies a processed outcome to a new or PENDING payment: SUCCEEDED (captured in full) when
 * `capture` is true, AUTHORIZED when it is false, or FAILED with the token's failure.
 *
 * @example
 * applyOutcome(payment, { description: '', outcome: 'success' }); // payment.status === 'SUCCEEDED'
 */
export function applyOutcome(payment: Payment, behaviour: TokenBehaviour): void {
  if (behaviour.outcome === 'success') {
    if (payment.capture) {
      payment.status = 'SUCCEEDED';
      payment.amount_captured = payment.amount;
    } else {
      payment.status = 'AUTHORIZED';
    }
    payment.failure_code = null;
    payment.failure_message = null;
  } else {
    payment.status = 'FAILED';
    payment.failure_code = behaviour.outcome.failure_code;
    payment.failure_message = behaviour.outcome.failure_message;
  }
}

/**
 * Settles a PENDING payment to its token's outcome (PENDING → SUCCEEDED | AUTHORIZED | FAILED).
 * Returns false, changing nothing, when the payment is no longer PENDING.
 *
 * @example
 * settlePendingPayment(pendingPayment, TEST_TOKEN_BEHAVIOURS.tok_test_pending); // true
 */
export function settlePendingPayment(payment: Payment, behaviour: TokenBehaviour): boolean {
  if (payment.status !== 'PENDING') return false;
  applyOutcome(payment, behaviour);
  return true;
}

/**
 * Captures an AUTHORIZED payment (→ SUCCEEDED), in full or up to `amount`.
 *
 * @example
 * capturePayment(authorizedPayment, 500); // { ok: true }, amount_captured 500
 */
export function capturePayment(payment: Payment, amount?: number): TransitionResult {
  if (payment.status !== 'AUTHORIZED') return invalidState(payment, 'capture');
  const captured = amount ?? payment.amount;
  if (captured > payment.amount) {
    return amountProblem(
      `amount must be at most the authorized amount, ${payment.amount}; got ${captured}.`,
    );
  }
  payment.status = 'SUCCEEDED';
  payment.amount_captured = captured;
  return { ok: true, value: undefined };
}

/**
 * Cancels an AUTHORIZED payment (→ CANCELED), releasing the authorization.
 *
 * @example
 * cancelPayment(authorizedPayment); // { ok: true }, status 'CANCELED'
 */
export function cancelPayment(payment: Payment): TransitionResult {
  if (payment.status !== 'AUTHORIZED') return invalidState(payment, 'cancel');
  payment.status = 'CANCELED';
  return { ok: true, value: undefined };
}

/**
 * Refunds a SUCCEEDED payment, by default everything that remains. The payment becomes REFUNDED
 * when `amount_refunded` reaches `amount_captured`; a partial refund keeps it SUCCEEDED.
 * Returns the refunded amount.
 *
 * @example
 * refundPayment(succeededPayment, 300); // { ok: true, value: 300 }
 */
export function refundPayment(payment: Payment, amount?: number): TransitionResult<number> {
  if (payment.status !== 'SUCCEEDED') return invalidState(payment, 'refund');
  const remaining = payment.amount_captured - payment.amount_refunded;
  const refunded = amount ?? remaining;
  if (refunded > remaining) {
    return amountProblem(
      `amount must be at most what remains to refund, ${remaining}; got ${refunded}.`,
    );
  }
  payment.amount_refunded += refunded;
  if (payment.amount_refunded === payment.amount_captured) payment.status = 'REFUNDED';
  return { ok: true, value: refunded };
}
