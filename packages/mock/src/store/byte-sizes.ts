// What the sandbox's data costs in memory: conservative byte estimates every store counts alike.
import type { IdempotencyRecord, StoredPayment, StoredResponse } from './records.js';
import type { RecordedEntry } from './request-records.js';
import type { StoredEvent, WebhookDelivery } from './webhook-records.js';

/** An empty account: the object, its maps, queues and heap. */
export const ACCOUNT_BYTES = 2048;

// Strings count two bytes a character (V8 may store them as UTF-16), objects a fixed overhead.
const text = (value: string | null | undefined) => 2 * (value?.length ?? 0);

/** A stored payment's own fields and object, before its strings. */
export const PAYMENT_BYTES = 160;

/**
 * The bytes one stored payment holds.
 *
 * @example
 * paymentBytes(stored); // ≈ 1000 for a payment with a short description
 */
export function paymentBytes(stored: StoredPayment): number {
  return (
    PAYMENT_BYTES + text(stored.id) + text(stored.json) + text(stored.token) + text(stored.changes)
  );
}

/**
 * The bytes one stored answer holds (body and headers).
 *
 * @example
 * responseBytes({ status: 201, headers: {}, body: '{}' }); // 68
 */
export function responseBytes(response: StoredResponse): number {
  let bytes = 64 + text(response.body);
  for (const [name, value] of Object.entries(response.headers))
    bytes += 32 + text(name) + text(value);
  return bytes;
}

/**
 * The bytes one idempotency record holds without its answer (key, method, path, body fingerprint).
 *
 * @example
 * recordBytes({ key: 'k', method: 'POST', path: '/v1/payments', bodyFingerprint: '', expiresAt: 0, serverExpiresAt: 0 });
 */
export function recordBytes(record: IdempotencyRecord): number {
  return (
    256 + text(record.key) + text(record.method) + text(record.path) + text(record.bodyFingerprint)
  );
}

/**
 * The bytes of a string kept by the webhook state (an event body, a log entry's text).
 *
 * @example
 * stringBytes('abc'); // 6
 */
export function stringBytes(value: string | null | undefined): number {
  return text(value);
}

/** One delivery attempt waiting in a key's queue. */
export const QUEUED_BYTES = 160;

const EVENT_BYTES = 160;
const DELIVERY_BYTES = 400;
const REQUEST_BYTES = 256;

/**
 * The bytes one event kept for redelivery holds.
 *
 * @example
 * eventBytes({ id: 'evt_1', type: 'payment.succeeded', body: '{}' }); // 174
 */
export function eventBytes(event: StoredEvent): number {
  return EVENT_BYTES + text(event.id) + text(event.body);
}

/**
 * The bytes one entry of a key's webhook delivery log holds.
 *
 * @example
 * deliveryBytes(entry); // 400 + twice the characters of its URL, error and response body
 */
export function deliveryBytes(entry: WebhookDelivery): number {
  return DELIVERY_BYTES + text(entry.url) + text(entry.error) + text(entry.response_body);
}

/**
 * The bytes one request recorded for the inspector holds.
 *
 * @example
 * requestBytes(entry); // 256 + twice the characters of its id, path and bodies
 */
export function requestBytes(entry: RecordedEntry): number {
  return (
    REQUEST_BYTES +
    text(entry.requestId) +
    text(entry.path) +
    text(entry.requestBody) +
    text(entry.responseBody)
  );
}
