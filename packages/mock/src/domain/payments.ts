// Payment operations of one sandbox account: create, retrieve, list, capture, cancel, refund.
import { newPaymentId, newRefundId } from '../ids.js';
import type { ProblemInit } from '../problems.js';
import type { Account } from '../store/account.js';
import type { AccountStore } from '../store/accounts.js';
import { formatTimestamp } from '../time.js';
import type { TokenTable } from './tokens.js';
import { applyOutcome, cancelPayment, capturePayment, refundPayment } from './transitions.js';
import type {
  CapturePaymentRequest,
  CreatePaymentRequest,
  CreateRefundRequest,
  Payment,
  PaymentList,
  Refund,
} from './types.js';

/** A domain answer: a status and a body of type `Body` to serialize, or a problem. */
export type DomainResult<Body = Payment | Refund | PaymentList> =
  | { ok: true; status: number; body: Body }
  | { ok: false; problem: ProblemInit };

/** What the payment operations need besides the account. */
export interface PaymentContext {
  store: AccountStore;
  tokens: TokenTable;
  settlementDelayMs: number;
}

function notFound(id: string): { ok: false; problem: ProblemInit } {
  return {
    ok: false,
    problem: { code: 'not_found', detail: `No payment with id ${id} exists for this API key.` },
  };
}

/**
 * Creates a payment with a validated request. Success and failure tokens are processed at once;
 * pending tokens start PENDING and settle after the settlement delay on the account's clock.
 *
 * @example
 * createPayment(context, account, Date.now(), {
 *   amount: 1000, currency: 'KZT', payment_method: { type: 'token', token: 'tok_test_success' },
 * }); // { ok: true, status: 201, body: { status: 'SUCCEEDED', … } }
 */
export function createPayment(
  context: PaymentContext,
  account: Account,
  accountNow: number,
  request: CreatePaymentRequest,
): DomainResult<Payment> {
  const behaviour = context.tokens.behaviourOf(request.payment_method.token);
  if (behaviour === undefined) {
    // Validation checks tokens first; this guards against a token table changed meanwhile.
    return {
      ok: false,
      problem: {
        code: 'invalid_request',
        detail: 'Unknown test token.',
        param: 'payment_method.token',
      },
    };
  }
  const payment: Payment = {
    id: newPaymentId(),
    object: 'payment',
    status: 'PENDING',
    amount: request.amount,
    currency: request.currency,
    created_at: formatTimestamp(accountNow),
    capture: request.capture ?? true,
    description: request.description ?? null,
    amount_captured: 0,
    amount_refunded: 0,
    failure_code: null,
    failure_message: null,
  };
  if (behaviour.pending) {
    context.store.addPayment(
      account,
      payment,
      request.payment_method.token,
      accountNow + context.settlementDelayMs,
    );
  } else {
    applyOutcome(payment, behaviour);
    context.store.addPayment(account, payment, request.payment_method.token);
  }
  return { ok: true, status: 201, body: payment };
}

/**
 * Finds one payment of the account.
 *
 * @example
 * retrievePayment(account, 'pay_123'); // { ok: false, problem: { code: 'not_found', … } }
 */
export function retrievePayment(account: Account | undefined, id: string): DomainResult<Payment> {
  const stored = account?.payments.get(id);
  if (stored === undefined) return notFound(id);
  return { ok: true, status: 200, body: stored.payment };
}

/**
 * Lists the account's payments, newest first. An unknown `startingAfter` is a 400.
 *
 * @example
 * listPayments(account, 10); // { ok: true, status: 200, body: { object: 'list', data: […], has_more: false } }
 */
export function listPayments(
  account: Account | undefined,
  limit: number,
  startingAfter?: string,
): DomainResult<PaymentList> {
  if (account === undefined) {
    if (startingAfter !== undefined) return unknownCursor(startingAfter);
    return { ok: true, status: 200, body: { object: 'list', data: [], has_more: false } };
  }
  const page = account.listPayments(limit, startingAfter);
  if (page === undefined) return unknownCursor(startingAfter ?? '');
  return {
    ok: true,
    status: 200,
    body: { object: 'list', data: page.data, has_more: page.has_more },
  };
}

function unknownCursor(startingAfter: string): { ok: false; problem: ProblemInit } {
  const message = `starting_after must be the id of one of this API key's payments; ${startingAfter} is not`;
  return {
    ok: false,
    problem: {
      code: 'invalid_request',
      detail: message,
      param: 'starting_after',
      errors: [{ param: 'starting_after', code: 'invalid_value', message }],
    },
  };
}

/**
 * Captures an AUTHORIZED payment, in full or partially.
 *
 * @example
 * capture(account, 'pay_123', { amount: 500 }); // { ok: true, status: 200, body: { status: 'SUCCEEDED', amount_captured: 500, … } }
 */
export function capture(
  account: Account | undefined,
  id: string,
  request: CapturePaymentRequest,
): DomainResult<Payment> {
  const stored = account?.payments.get(id);
  if (stored === undefined) return notFound(id);
  const result = capturePayment(stored.payment, request.amount);
  if (!result.ok) return result;
  return { ok: true, status: 200, body: stored.payment };
}

/**
 * Cancels an AUTHORIZED payment.
 *
 * @example
 * cancel(account, 'pay_123'); // { ok: true, status: 200, body: { status: 'CANCELED', … } }
 */
export function cancel(account: Account | undefined, id: string): DomainResult<Payment> {
  const stored = account?.payments.get(id);
  if (stored === undefined) return notFound(id);
  const result = cancelPayment(stored.payment);
  if (!result.ok) return result;
  return { ok: true, status: 200, body: stored.payment };
}

/**
 * Refunds a SUCCEEDED payment and returns the refund object (201).
 *
 * @example
 * refund(account, Date.now(), 'pay_123', {}); // { ok: true, status: 201, body: { object: 'refund', … } }
 */
export function refund(
  account: Account | undefined,
  accountNow: number,
  id: string,
  request: CreateRefundRequest,
): DomainResult<Refund> {
  const stored = account?.payments.get(id);
  if (stored === undefined) return notFound(id);
  const result = refundPayment(stored.payment, request.amount);
  if (!result.ok) return result;
  const refundObject: Refund = {
    id: newRefundId(),
    object: 'refund',
    payment_id: stored.payment.id,
    amount: result.value,
    currency: stored.payment.currency,
    status: 'SUCCEEDED',
    created_at: formatTimestamp(accountNow),
  };
  return { ok: true, status: 201, body: refundObject };
}
