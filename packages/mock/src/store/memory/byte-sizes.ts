// What the sandbox's data costs in memory: conservative byte estimates and the default budgets.
import type { IdempotencyRecord, StoredPayment, StoredResponse } from '../records.js';

/** The whole sandbox's data budget by default (the process stays under 512 MiB RSS). */
export const DEFAULT_MEMORY_BUDGET_BYTES = 256 * 1024 * 1024;
/** One key's data budget by default; beyond it the key's own oldest data goes. */
export const DEFAULT_KEY_MEMORY_BUDGET_BYTES = 16 * 1024 * 1024;
/** A key unused for this long may be forgotten when the sandbox is full (and the eviction logged). */
export const IDLE_ACCOUNT_MS = 60 * 60 * 1000;

/** An empty account: the object, its maps, queues and heap. */
export const ACCOUNT_BYTES = 2048;

// Strings count two bytes a character (V8 may store them as UTF-16), objects a fixed overhead.
const text = (value: string | null | undefined) => 2 * (value?.length ?? 0);

/**
 * The bytes one stored payment holds.
 *
 * @example
 * paymentBytes(stored); // ≈ 1000 for a payment with a short description
 */
export function paymentBytes(stored: StoredPayment): number {
  return 160 + text(stored.id) + text(stored.json) + text(stored.token) + text(stored.changes);
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
