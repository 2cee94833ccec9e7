// How the store's records are written as strings in Valkey/Redis and read back.

import type { RecordProblem } from '../record-checks.js';
import {
  type IdempotencyRecord,
  type PaymentRecord,
  recordData,
  StoredPayment,
} from '../records.js';
import type { RecordedEntry } from '../request-records.js';
import type { EndpointRecord, QueuedDelivery } from '../webhook-records.js';
import type { RecordReading } from './reading.js';

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
 * starting at `from`, each checked (`reading`) unless its text is known to hold; `key` is the
 * account's payment hash, for a refusal.
 *
 * @example
 * decodePayments(['pay_1', '{…}', '["tok",null,0,"SUCCEEDED",1]', '', '0'], 0, reading, key)[0]?.id; // 'pay_1'
 */
export function decodePayments(
  fields: readonly unknown[],
  from: number,
  reading: RecordReading,
  key: string,
): StoredPayment[] {
  const out: StoredPayment[] = [];
  for (let index = from; index + 4 < fields.length; index += 5) {
    const id = fields[index] as string;
    const json = fields[index + 1] as string;
    const metaText = fields[index + 2] as string;
    const changes = fields[index + 3] as string;
    const sequence = Number(fields[index + 4]);
    const parts = [id, metaText, changes];
    const what = `a payment (field ${String(id).slice(0, 64)})`;
    let meta: unknown;
    try {
      meta = JSON.parse(metaText);
    } catch {
      // Refused below.
    }
    if (!Array.isArray(meta) || meta.length !== 5) {
      throw reading.refuse(key, what, {
        field: 'meta',
        message: 'its meta field must be [token, settles at, created at, status, amount]',
      });
    }
    const [token, settlesAt, at, status, amount] = meta as PaymentMeta;
    if (!reading.known.has(json, parts)) {
      const problem = reading.checks.payment({
        id,
        json,
        token,
        settlesAt,
        timeline: [at, status, amount, changes === '' ? null : changes],
      });
      if (problem !== undefined) throw reading.refuse(key, what, problem);
      if (!Number.isSafeInteger(sequence) || sequence < 0) {
        throw reading.refuse(key, what, {
          field: 'sequence',
          message: 'its sequence must be an integer from 0',
        });
      }
      reading.known.add(json, parts);
    }
    out.push(
      new StoredPayment(
        id,
        json,
        sequence,
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
 * Remembers a payment this process writes as known to hold: read back, `decodePayments` does
 * not check it again.
 *
 * @example
 * rememberPayment(reading, record, paymentMeta(record));
 */
export function rememberPayment(reading: RecordReading, record: PaymentRecord, meta: string): void {
  const parts = [record.id, meta, record.timeline[3] ?? ''];
  reading.known.add(record.json, parts);
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

/**
 * An idempotency record read back from `key` (the account's record hash), checked unless its
 * text is known to hold (records in flight are stored too).
 *
 * @example
 * decodeRecord(text, reading, account.part('i')).key;
 */
export function decodeRecord(text: string, reading: RecordReading, key: string): IdempotencyRecord {
  reading.checkText(text, key, 'an Idempotency-Key record', (value) =>
    reading.checks.idempotencyRecord(value, true),
  );
  return JSON.parse(text) as IdempotencyRecord;
}

/** An endpoint with its signing key (base64), as stored. */
export function encodeEndpoint(record: EndpointRecord): string {
  return JSON.stringify({
    endpoint: record.endpoint,
    key: Buffer.from(record.key).toString('base64'),
  });
}

/**
 * An endpoint read back from `where` (a key and field), checked unless its text is known to hold.
 *
 * @example
 * decodeEndpoint(text, reading, `${account.part('e')} field ${id}`).endpoint.id;
 */
export function decodeEndpoint(
  text: string,
  reading: RecordReading,
  where: string,
): EndpointRecord {
  reading.checkText(text, where, 'a webhook endpoint', (value) => {
    const stored = (typeof value === 'object' && value !== null ? value : {}) as {
      endpoint?: unknown;
      key?: unknown;
    };
    return reading.checks.endpoint(stored.endpoint, stored.key);
  });
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

/**
 * An attempt read back from `key` (the account's attempts), from its member (the sequence) and
 * 'dueAt|json': its event, number, due time and target endpoint checked.
 *
 * @example
 * decodeDelivery('000000000001', `${dueAt}|${json}`, reading, account.part('qd')).attempt;
 */
export function decodeDelivery(
  member: string,
  stored: string,
  reading: RecordReading,
  key: string,
): QueuedDelivery {
  const where = `${key} field ${String(member).slice(0, 64)}`;
  const [dueAt, json] = splitSized(String(stored));
  const sequence = Number(member);
  if (!reading.known.has(stored)) {
    reading.checkText(json, where, 'a delivery attempt', (value) => {
      const { event, attempt } = (typeof value === 'object' && value !== null ? value : {}) as {
        event?: unknown;
        attempt?: unknown;
      };
      return reading.checks.attempt({ event, attempt, dueAt, sequence });
    });
    reading.known.add(stored);
  }
  const { event, target, attempt } = JSON.parse(json) as {
    event: QueuedDelivery['event'];
    target: unknown;
    attempt: number;
  };
  return {
    event,
    target: decodeEndpoint(JSON.stringify(target), reading, where),
    attempt,
    dueAt,
    sequence,
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

/**
 * A value stored as 'number|json' read back from `where`: its JSON checked by `check` unless
 * known to hold (an event, a delivery log entry, a request log entry).
 *
 * @example
 * decodeSized<StoredEvent>(text, reading, key, 'an event', (value) => reading.checks.event(value));
 */
export function decodeSized<T>(
  stored: string,
  reading: RecordReading,
  where: string,
  what: string,
  check: (value: unknown) => RecordProblem | undefined,
): T {
  const json = splitSized(String(stored))[1];
  reading.checkText(json, where, what, check);
  return JSON.parse(json) as T;
}

/** A request log entry read back from `key` (the account's request log). */
export function decodeEntry(stored: string, reading: RecordReading, key: string): RecordedEntry {
  return decodeSized(stored, reading, key, "a request of the inspector's log", (value) =>
    reading.checks.request(value),
  );
}
