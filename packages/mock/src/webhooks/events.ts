// Builds the event of a payment status change: `payment.<status>`, id `evt_…`, and its exact JSON body.
import type { Payment, PaymentStatus } from '../domain/types.js';
import { type RandomSource, systemRandom } from '../shared/ids.js';
import { formatTimestamp } from '../shared/time.js';
import type { EventType, StoredEvent } from '../store/webhook-records.js';

const EVENT_TYPES: Readonly<Record<PaymentStatus, EventType>> = {
  PENDING: 'payment.pending',
  AUTHORIZED: 'payment.authorized',
  SUCCEEDED: 'payment.succeeded',
  FAILED: 'payment.failed',
  CANCELED: 'payment.canceled',
  REFUNDED: 'payment.refunded',
};

/**
 * The event of a payment that just changed to its current status, with the payment as it is
 * now serialized into the body, so later changes do not alter it.
 *
 * @example
 * const event = paymentEvent(payment, Date.now());
 * event.type; // 'payment.succeeded'
 * JSON.parse(event.body).data.object.id === payment.id; // true
 */
export function paymentEvent(
  payment: Payment,
  accountNow: number,
  random: RandomSource = systemRandom,
): StoredEvent {
  const id = `evt_${random.base62(24)}`;
  const type = EVENT_TYPES[payment.status];
  const body = JSON.stringify({
    id,
    object: 'event',
    type,
    created_at: formatTimestamp(accountNow),
    data: { object: payment },
  });
  return { id, type, body };
}
