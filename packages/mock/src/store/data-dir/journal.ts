// What the store tells a durable log of each change: one line per change, replayed at start-up.
import { hash } from 'node:crypto';
import type { components, SandboxComponents } from '@payment-service/openapi';
import { type IdempotencyRecord, type PackedTimeline, recordData } from '../records.js';

type Faults = SandboxComponents['schemas']['Faults'];
type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
type WebhookDelivery = SandboxComponents['schemas']['WebhookDelivery'];
type EventType = components['schemas']['EventType'];

/** An event as the journal keeps it (the signed body, as sent). */
export interface JournalEvent {
  id: string;
  type: EventType;
  body: string;
}

/** A delivery attempt waiting to be made, with the endpoint it goes to by id. */
export interface JournalAttempt {
  event: JournalEvent;
  endpointId: string;
  attempt: number;
  dueAt: number;
  sequence: number;
}

/**
 * One change of one key's data. The second element is the key's id (a hash of the API key: the
 * key itself is never written). Later lines about the same thing replace earlier ones.
 */
export type JournalLine =
  /** A payment as it is now: its id, JSON, token, settlement time and packed timeline. */
  | ['p', string, string, string, string, number | null, PackedTimeline]
  /** A payment forgotten (evicted as the key's oldest). */
  | ['p-', string, string]
  /**
   * An idempotency record with its stored answer. When the answer's body is a stored payment's
   * text as it is at that point of the journal (a create's answer, written with its payment), the
   * fourth element names that payment and the body is left empty: it is not written twice.
   */
  | ['i', string, IdempotencyRecord]
  | ['i', string, IdempotencyRecord, string]
  /** An idempotency record forgotten (expired, or trimmed by a cap). */
  | ['i-', string, string]
  | ['f', string, Faults]
  /** The key's clock offset, in seconds. */
  | ['o', string, number]
  /** Everything of the key deleted (a reset, or an idle key forgotten). */
  | ['r', string]
  /** An endpoint as it is now, with its signing key in base64. */
  | ['e', string, WebhookEndpoint, string]
  | ['e-', string, string]
  | ['v', string, JournalEvent]
  /** An attempt queued. */
  | ['q', string, JournalAttempt]
  /** An attempt made (its outcome is in the log line that follows): by its sequence. */
  | ['q-', string, number]
  | ['l', string, WebhookDelivery];

/** Where the journaled store writes the changes of the memory store it wraps. */
export interface StoreJournal {
  /** Takes one change; it is on disk before the answer that follows it is sent. */
  write(line: JournalLine): void;
  /**
   * False while changes are not written (the journal is being read back into the store): the
   * store need not build them. Absent: always written.
   */
  readonly recording?: boolean;
}

/**
 * The id a key has in the journal: a hash of its API key, so the files never hold the key.
 *
 * @example
 * keyIdOf("sk_test_12345678"); // 22 base64url characters
 */
export function keyIdOf(apiKey: string): string {
  return hash('sha256', apiKey, 'base64url').slice(0, KEY_ID_LENGTH);
}

const KEY_ID_LENGTH = 22;

/**
 * Whether a value read from a journal is a key id as `keyIdOf` makes them.
 *
 * @example
 * isKeyId(keyIdOf('sk_test_12345678')); // true
 */
export function isKeyId(value: unknown): value is string {
  return typeof value === 'string' && value.length === KEY_ID_LENGTH && /^[\w-]+$/.test(value);
}

const PAYMENT_BODY = /^\{"id":"(pay_[A-Za-z0-9]+)"/;

/**
 * The journal line of a completed idempotency record: an answer whose body is one of the key's
 * stored payments as it is now names the payment instead of holding its text again.
 *
 * @example
 * recordLine(keyId, record, (id) => account.payments.get(id)?.json); // ['i', keyId, {…, body: ''}, 'pay_…']
 */
export function recordLine(
  keyId: string,
  record: IdempotencyRecord,
  paymentJson: (id: string) => string | undefined,
): JournalLine {
  const data = recordData(record);
  const response = data.response;
  if (response === undefined) return ['i', keyId, data];
  const id = PAYMENT_BODY.exec(response.body.slice(0, 64))?.[1];
  if (id === undefined || paymentJson(id) !== response.body) return ['i', keyId, data];
  return ['i', keyId, { ...data, response: { ...response, body: '' } }, id];
}
