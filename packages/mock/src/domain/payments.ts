// Payment rules of one sandbox account: build a payment or a refund, retrieve, list (pure reads).
import { newPaymentId, newRefundId, type RandomSource, systemRandom } from '../shared/ids.js';
import type { ProblemInit } from '../shared/problems.js';
import { formatTimestamp } from '../shared/time.js';
import type { StoredPayment } from '../store/records.js';
import type { PaymentPage } from '../store/store.js';
import type { TokenTable } from './tokens.js';
import { applyOutcome } from './transitions.js';
import type { CreatePaymentRequest, Payment, PaymentList, Refund } from './types.js';

/**
 * A domain answer: a status and a body of type `Body` to serialize (or already serialized as
 * `text`: a stored payment's cached JSON), or a problem.
 */
export type DomainResult<Body = Payment | Refund | PaymentList> =
  | { ok: true; status: number; body: Body; text?: string }
  | { ok: false; problem: ProblemInit };

/**
 * The 404 of a payment id the key does not have.
 *
 * @example
 * paymentNotFound('pay_1').problem.code; // 'not_found'
 */
export function paymentNotFound(id: string): { ok: false; problem: ProblemInit } {
  return {
    ok: false,
    problem: { code: 'not_found', detail: `No payment with id ${id} exists for this API key.` },
  };
}

/**
 * Builds a new payment from a validated request, changing nothing: success and failure tokens
 * are processed at once; pending tokens start PENDING and settle `settlementDelayMs` later on the
 * account's clock (`settlesAt`).
 *
 * @example
 * buildPayment(tokens, 5_000, Date.now(), {
 *   amount: 1000, currency: 'KZT', payment_method: { type: 'token', token: 'tok_test_success' },
 * }); // { ok: true, status: 201, body: { payment: { status: 'SUCCEEDED', … }, settlesAt: undefined } }
 */
export function buildPayment(
  tokens: TokenTable,
  settlementDelayMs: number,
  accountNow: number,
  request: CreatePaymentRequest,
  random: RandomSource = systemRandom,
): DomainResult<{ payment: Payment; settlesAt: number | undefined }> {
  const behaviour = tokens.behaviourOf(request.payment_method.token);
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
    id: newPaymentId(random),
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
    return { ok: true, status: 201, body: { payment, settlesAt: accountNow + settlementDelayMs } };
  }
  applyOutcome(payment, behaviour);
  return { ok: true, status: 201, body: { payment, settlesAt: undefined } };
}

/**
 * The answer of a payment read by id (`stored`: the account's payment, undefined when it has none).
 *
 * @example
 * retrievePayment(undefined, 'pay_123'); // { ok: false, problem: { code: 'not_found', … } }
 */
export function retrievePayment(
  stored: StoredPayment | undefined,
  id: string,
): DomainResult<Payment> {
  if (stored === undefined) return paymentNotFound(id);
  return new JsonText<Payment>(200, stored.json);
}

/**
 * A success given as its JSON text (a stored payment's, a page of them): sent as it is, its body
 * parsed only when read. A class, so its getter is shared rather than made per answer.
 *
 * @example
 * new JsonText<Payment>(200, stored.json).text; // '{"id":"pay_1",…}'
 */
export class JsonText<Body> {
  readonly ok = true;

  constructor(
    readonly status: number,
    readonly text: string,
  ) {}

  get body(): Body {
    return JSON.parse(this.text) as Body;
  }
}

/**
 * The answer of a page of the account's payments, newest first (`page`: as the store read it,
 * `null` when the key has no account). An unknown `startingAfter` is a 400.
 *
 * @example
 * listPayments(null); // { ok: true, status: 200, body: { object: 'list', data: [], has_more: false } }
 */
export function listPayments(
  page: PaymentPage | undefined | null,
  startingAfter?: string,
): DomainResult<PaymentList> {
  if (page === null) {
    if (startingAfter !== undefined) return unknownCursor(startingAfter);
    return { ok: true, status: 200, body: { object: 'list', data: [], has_more: false } };
  }
  if (page === undefined) return unknownCursor(startingAfter ?? '');
  // The stored payments' JSON as it is: the page is never parsed to be written again.
  let data = '';
  for (const stored of page.data) data += data === '' ? stored.json : `,${stored.json}`;
  return new JsonText<PaymentList>(
    200,
    `{"object":"list","data":[${data}],"has_more":${page.has_more}}`,
  );
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
 * Builds the refund object of a refund of `amount` just applied to `payment`.
 *
 * @example
 * refundObject(payment, 400, Date.now()); // { object: 'refund', amount: 400, status: 'SUCCEEDED', … }
 */
export function refundObject(
  payment: Payment,
  amount: number,
  accountNow: number,
  random: RandomSource = systemRandom,
): Refund {
  return {
    id: newRefundId(random),
    object: 'refund',
    payment_id: payment.id,
    amount,
    currency: payment.currency,
    status: 'SUCCEEDED',
    created_at: formatTimestamp(accountNow),
  };
}
