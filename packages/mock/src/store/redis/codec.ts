// How the store's records are written as strings in Valkey/Redis and read back.
import {
  type IdempotencyRecord,
  type PaymentRecord,
  recordData,
  StoredPayment,
} from '../records.js';
import type { RecordedEntry } from '../request-log.js';
import type { EndpointRecord, QueuedDelivery } from '../webhook-state.js';

/** What the store keeps of a payment besides its JSON: token, settlement, creation step. */
type PaymentMeta = [string, number | null, number, StoredPayment['createdStatus'], number];

/**
 * The meta field of a new payment.
 *
 * @example
 * paymentMeta(record); // '["tok_test_success",null,0,"SUCCEEDED",1000]'
 */
export function paymentMeta(record: PaymentRecord): string {
  const [at, status, amount] = record.timeline;
  const meta: PaymentMeta = [record.token, record.settlesAt ?? null, at, status, amount];
  return JSON.stringify(meta);
}

/**
 * Payments from a script's answer: five fields each (id, json, meta, changes or '', sequence),
 * starting at `from`.
 *
 * @example
 * decodePayments(['pay_1', '{…}', '["tok",null,0,"SUCCEEDED",1]', '', '0'])[0]?.id; // 'pay_1'
 */
export function decodePayments(fields: readonly unknown[], from = 0): StoredPayment[] {
  const out: StoredPayment[] = [];
  for (let index = from; index + 4 < fields.length; index += 5) {
    const [token, settlesAt, at, status, amount] = JSON.parse(
      fields[index + 2] as string,
    ) as PaymentMeta;
    const changes = fields[index + 3] as string;
    out.push(
      new StoredPayment(
        fields[index] as string,
        fields[index + 1] as string,
        Number(fields[index + 4]),
        token,
        settlesAt ?? undefined,
        { at, status, amount },
        changes === '' ? undefined : changes,
      ),
    );
  }
  return out;
}

/**
 * An idempotency record as stored (without the store's link to its account).
 *
 * @example
 * JSON.parse(encodeRecord(record)).key === record.key; // true
 */
export function encodeRecord(record: IdempotencyRecord): string {
  return JSON.stringify(recordData(record));
}

/** An idempotency record read back. */
export function decodeRecord(text: string): IdempotencyRecord {
  return JSON.parse(text) as IdempotencyRecord;
}

/** An endpoint with its signing key (base64), as stored. */
export function encodeEndpoint(record: EndpointRecord): string {
  return JSON.stringify({
    endpoint: record.endpoint,
    key: Buffer.from(record.key).toString('base64'),
  });
}

/** An endpoint read back. */
export function decodeEndpoint(text: string): EndpointRecord {
  const { endpoint, key } = JSON.parse(text) as {
    endpoint: EndpointRecord['endpoint'];
    key: string;
  };
  return { endpoint, key: new Uint8Array(Buffer.from(key, 'base64')) };
}

/** An attempt as stored: its event, target endpoint (with key) and attempt number. */
export function encodeDelivery(delivery: Omit<QueuedDelivery, 'sequence'>): string {
  return JSON.stringify({
    event: delivery.event,
    target: JSON.parse(encodeEndpoint(delivery.target)) as unknown,
    attempt: delivery.attempt,
  });
}

/** An attempt read back from its member (the sequence) and 'dueAt|json'. */
export function decodeDelivery(member: string, stored: string): QueuedDelivery {
  const [dueAt, json] = splitSized(stored);
  const { event, target, attempt } = JSON.parse(json) as {
    event: QueuedDelivery['event'];
    target: unknown;
    attempt: number;
  };
  return {
    event,
    target: decodeEndpoint(JSON.stringify(target)),
    attempt,
    dueAt,
    sequence: Number(member),
  };
}

/**
 * A value stored as 'number|text' split in two.
 *
 * @example
 * splitSized('12|{"a":1}'); // [12, '{"a":1}']
 */
export function splitSized(stored: string): [number, string] {
  const bar = stored.indexOf('|');
  return [Number(stored.slice(0, bar)), stored.slice(bar + 1)];
}

/** A request log entry read back. */
export function decodeEntry(stored: string): RecordedEntry {
  return JSON.parse(splitSized(stored)[1]) as RecordedEntry;
}
