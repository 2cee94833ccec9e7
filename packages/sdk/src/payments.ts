// The payments resource: create, retrieve, list, capture and cancel payments.
import { InvalidResponseError } from './errors.js';
import { checkPathId } from './path-id.js';
import type { RequestOptions, Transport } from './transport.js';
import type {
  CapturePaymentParams,
  CreatePaymentParams,
  ListAllPaymentsParams,
  ListPaymentsParams,
  Payment,
  PaymentList,
} from './types.js';

/** The methods of `client.payments`. */
export interface Payments {
  /**
   * Creates a payment in one request (`POST /v1/payments`). With `capture: true` and a success
   * test token the payment is `SUCCEEDED`; a decline is a payment with status `FAILED`, not an
   * error. Sends an `Idempotency-Key` (yours, or a fresh UUID).
   *
   * Provenance: documented (4.1); the success status code (any 2xx accepted), the
   * Idempotency-Key and the error bodies are inferred.
   *
   * @example
   * const payment = await client.payments.create({
   *   amount: 150000,
   *   currency: 'KZT',
   *   capture: true,
   *   description: 'Order 1042',
   *   payment_method: { type: 'token', token: 'tok_test_success' },
   * });
   * payment.status; // 'SUCCEEDED'
   */
  create(params: CreatePaymentParams, options?: RequestOptions): Promise<Payment>;

  /**
   * Retrieves a payment by id (`GET /v1/payments/{id}`); an unknown id is a NotFoundError.
   *
   * Provenance: inferred (retrieval is named by the provider but not shown).
   *
   * @example
   * const payment = await client.payments.retrieve('pay_123');
   */
  retrieve(id: string, options?: RequestOptions): Promise<Payment>;

  /**
   * Lists one page of the key's payments, newest first (`GET /v1/payments`). Pass the last
   * payment's `id` as `starting_after` for the next page while `has_more` is true.
   *
   * Provenance: inferred (listing is named by the provider but not shown).
   *
   * @example
   * const page = await client.payments.list({ limit: 20 });
   * if (page.has_more) await client.payments.list({ limit: 20, starting_after: page.data.at(-1)?.id });
   */
  list(params?: ListPaymentsParams, options?: RequestOptions): Promise<PaymentList>;

  /**
   * Iterates over every payment of the key, newest first, fetching page after page
   * (`starting_after` = the last id of the previous page) until `has_more` is false.
   *
   * Provenance: inferred (listing is named by the provider but not shown).
   *
   * @example
   * for await (const payment of client.payments.listAll({ limit: 100 })) console.log(payment.id);
   */
  listAll(params?: ListAllPaymentsParams, options?: RequestOptions): AsyncIterable<Payment>;

  /**
   * Captures an `AUTHORIZED` payment, fully or partly with `amount`
   * (`POST /v1/payments/{id}/capture`); another status is a ConflictError (`invalid_state`).
   *
   * Provenance: inferred (capture is named by the provider but not shown).
   *
   * @example
   * const payment = await client.payments.capture('pay_123', { amount: 50000 });
   * payment.status; // 'SUCCEEDED'
   */
  capture(id: string, params?: CapturePaymentParams, options?: RequestOptions): Promise<Payment>;

  /**
   * Cancels an `AUTHORIZED` payment (`POST /v1/payments/{id}/cancel`); it becomes `CANCELED`.
   * Another status is a ConflictError (`invalid_state`).
   *
   * Provenance: inferred (cancellation is named by the provider but not shown).
   *
   * @example
   * const payment = await client.payments.cancel('pay_123');
   * payment.status; // 'CANCELED'
   */
  cancel(id: string, options?: RequestOptions): Promise<Payment>;
}

/**
 * Builds `client.payments` on a transport.
 *
 * @example
 * const payments = createPayments(createTransport(validateClientOptions(options)));
 */
export function createPayments(transport: Transport): Payments {
  const { api, request } = transport;

  const list: Payments['list'] = (params, options) =>
    request('GET', options, (init) =>
      api.GET('/v1/payments', { params: { query: params }, ...init }),
    );

  return {
    create: (params, options) =>
      request('POST', options, (init) => api.POST('/v1/payments', { body: params, ...init })),

    retrieve: async (id, options) => {
      const path = { id: checkPaymentId(id) };
      return request('GET', options, (init) =>
        api.GET('/v1/payments/{id}', { params: { path }, ...init }),
      );
    },

    list,

    async *listAll(params, options) {
      // One cursor per page: a page that does not advance past every cursor so far is refused.
      const cursors = new Set<string>();
      let startingAfter: string | undefined;
      while (true) {
        const page = await list({ ...params, starting_after: startingAfter }, options);
        const { data } = page;
        if (!Array.isArray(data)) throw stalledList('its data is not an array');
        const last: unknown = data.at(-1);
        const id = (last as Partial<Payment> | undefined)?.id;
        if (page.has_more === true && typeof id !== 'string') {
          throw stalledList('has_more is true but the page has no last id to continue after');
        }
        if (typeof id === 'string' && cursors.has(id)) {
          throw stalledList('a page ends where an earlier page ended: starting_after was ignored');
        }
        yield* data;
        if (page.has_more !== true || typeof id !== 'string') return;
        cursors.add(id);
        startingAfter = id;
      }
    },

    capture: async (id, params, options) => {
      const path = { id: checkPaymentId(id) };
      return request('POST', options, (init) =>
        api.POST('/v1/payments/{id}/capture', { params: { path }, body: params, ...init }),
      );
    },

    cancel: async (id, options) => {
      const path = { id: checkPaymentId(id) };
      return request('POST', options, (init) =>
        api.POST('/v1/payments/{id}/cancel', { params: { path }, ...init }),
      );
    },
  };
}

/** The error of a list whose pages do not advance: a server that repeats a page would loop forever. */
function stalledList(reason: string): InvalidResponseError {
  return new InvalidResponseError(
    `invalid_response: listAll stopped: the list does not advance (${reason})`,
    { code: 'invalid_response' },
  );
}

/**
 * Checks a payment id before it goes into a path (see `checkPathId`): an empty id would address
 * `/v1/payments/`, the list, and `..` another path.
 *
 * @example
 * checkPaymentId('pay_123'); // 'pay_123'
 */
export function checkPaymentId(id: unknown): string {
  return checkPathId(id, 'a payment id', 'pay_…');
}
