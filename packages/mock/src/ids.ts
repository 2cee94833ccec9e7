// Random identifiers: payment, refund, request ids and sandbox test keys, from crypto randomness.
import { randomFillSync } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Bytes at or above this value are skipped so every base62 character is equally likely. */
const UNBIASED_LIMIT = 248; // 62 * 4
const pool = new Uint8Array(4096);
let poolIndex = pool.length;

function nextRandomByte(): number {
  if (poolIndex >= pool.length) {
    randomFillSync(pool);
    poolIndex = 0;
  }
  // biome-ignore lint/style/noNonNullAssertion: the index is always inside the pool
  return pool[poolIndex++]!;
}

/**
 * Returns `length` random base62 characters drawn from a crypto-filled pool, without modulo bias.
 *
 * @example
 * randomBase62(24); // 'q3ZkP0c9…' (24 characters)
 */
export function randomBase62(length: number): string {
  let result = '';
  while (result.length < length) {
    const byte = nextRandomByte();
    if (byte < UNBIASED_LIMIT) result += BASE62.charAt(byte % 62);
  }
  return result;
}

/**
 * A new payment id: `pay_` followed by 24 random base62 characters.
 *
 * @example
 * newPaymentId(); // 'pay_7GfQ2x…'
 */
export function newPaymentId(): string {
  return `pay_${randomBase62(24)}`;
}

/**
 * A new refund id: `ref_` followed by 24 random base62 characters.
 *
 * @example
 * newRefundId(); // 'ref_Xk93…'
 */
export function newRefundId(): string {
  return `ref_${randomBase62(24)}`;
}

/**
 * A new request id for the `Request-Id` header: `req_` followed by 20 random base62 characters.
 *
 * @example
 * newRequestId(); // 'req_a8Vd…'
 */
export function newRequestId(): string {
  return `req_${randomBase62(20)}`;
}

/**
 * A ready-to-use sandbox secret key: `sk_test_` followed by 24 random base62 characters.
 *
 * @example
 * newTestApiKey(); // 'sk_test_Jq1…'
 */
export function newTestApiKey(): string {
  return `sk_test_${randomBase62(24)}`;
}
