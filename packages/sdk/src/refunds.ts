// The refunds resource: refund all or part of a payment.
import { checkPaymentId } from './payments.js';
import type { RequestOptions, Transport } from './transport.js';
import type { CreateRefundParams, Refund } from './types.js';

/** The methods of `client.refunds`. */
export interface Refunds {
  /**
   * Refunds a `SUCCEEDED` payment, fully or partly with `amount`
   * (`POST /v1/payments/{id}/refunds`). Refunding more than remains is an InvalidRequestError;
   * another status is a ConflictError (`invalid_state`). Sends an `Idempotency-Key`.
   *
   * Provenance: inferred (refunds are named by the provider but not shown).
   *
   * @example
   * const refund = await client.refunds.create('pay_123', { amount: 5000 });
   * refund.id; // 'ref_…'
   */
  create(paymentId: string, params?: CreateRefundParams, options?: RequestOptions): Promise<Refund>;
}

/**
 * Builds `client.refunds` on a transport.
 *
 * @example
 * const refunds = createRefunds(createTransport(validateClientOptions(options)));
 */
export function createRefunds(transport: Transport): Refunds {
  const { api, request } = transport;
  return {
    create: async (paymentId, params, options) => {
      const path = { id: checkPaymentId(paymentId) };
      return request('POST', options, (init) =>
        api.POST('/v1/payments/{id}/refunds', { params: { path }, body: params, ...init }),
      );
    },
  };
}
