// Random identifiers (payment, refund, event, request ids, sandbox test keys) and the random source behind them.
import { createCipheriv, createHash, randomFillSync } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Bytes at or above this value are skipped so every base62 character is equally likely. */
const UNBIASED_LIMIT = 248; // 62 * 4
const POOL_BYTES = 4096;

/**
 * Where the sandbox's ids, signing secrets and random choices (retry jitter) come from: crypto
 * randomness by default, or a stream fixed by a seed, so a test sandbox repeats itself.
 */
export interface RandomSource {
  /** `length` base62 characters, without modulo bias. */
  base62(length: number): string;
  /** `length` random bytes. */
  bytes(length: number): Uint8Array;
  /** A number in [0, 1), as `Math.random()`. */
  fraction(): number;
}

/** Where `base62` writes an id's characters before reading them back as a string (ids are short). */
const scratch = Buffer.allocUnsafe(64);

/** A pool of random bytes, refilled by `fill` when used up. */
function poolSource(fill: (pool: Uint8Array) => void): RandomSource {
  let pool = new Uint8Array(POOL_BYTES);
  let index = pool.length;
  const next = (): number => {
    if (index >= pool.length) {
      pool = new Uint8Array(POOL_BYTES);
      fill(pool);
      index = 0;
    }
    // biome-ignore lint/style/noNonNullAssertion: the index is always inside the pool
    return pool[index++]!;
  };
  return {
    base62(length) {
      // Written into one buffer and read back as one flat string: appending a character at a
      // time made a new string per character (about 0.4 KB per id).
      const out = length <= scratch.length ? scratch : Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const byte = next();
        if (byte < UNBIASED_LIMIT) out[filled++] = BASE62.charCodeAt(byte % 62);
      }
      return out.toString('latin1', 0, length);
    },
    bytes(length) {
      const bytes = new Uint8Array(length);
      for (let at = 0; at < length; at++) bytes[at] = next();
      return bytes;
    },
    fraction() {
      // 53 random bits, as many as a double's mantissa holds.
      let value = 0;
      for (let at = 0; at < 7; at++) value = value * 256 + next();
      return (value % 2 ** 53) / 2 ** 53;
    },
  };
}

/** Crypto randomness (`randomFillSync`): the default source. */
export const systemRandom: RandomSource = poolSource((pool) => randomFillSync(pool));

/**
 * A random source fixed by a seed: the AES-256-CTR keystream keyed by the seed's SHA-256, so the
 * same seed gives the same ids, secrets and choices, in the same order, on every machine.
 *
 * @example
 * seededRandom('checkout-tests').base62(4) === seededRandom('checkout-tests').base62(4); // true
 */
export function seededRandom(seed: string | number): RandomSource {
  const key = createHash('sha256').update(`payment-service-mock:${seed}`).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  const zeros = new Uint8Array(POOL_BYTES);
  return poolSource((pool) => pool.set(cipher.update(zeros)));
}

/**
 * Returns `length` random base62 characters drawn from a crypto-filled pool, without modulo bias.
 *
 * @example
 * randomBase62(24); // 'q3ZkP0c9…' (24 characters)
 */
export function randomBase62(length: number, random: RandomSource = systemRandom): string {
  return random.base62(length);
}

/**
 * A new payment id: `pay_` followed by 24 random base62 characters.
 *
 * @example
 * newPaymentId(); // 'pay_7GfQ2x…'
 */
export function newPaymentId(random: RandomSource = systemRandom): string {
  return `pay_${random.base62(24)}`;
}

/**
 * A new refund id: `ref_` followed by 24 random base62 characters.
 *
 * @example
 * newRefundId(); // 'ref_Xk93…'
 */
export function newRefundId(random: RandomSource = systemRandom): string {
  return `ref_${random.base62(24)}`;
}

/**
 * A new request id for the `Request-Id` header: `req_` followed by 20 random base62 characters.
 *
 * @example
 * newRequestId(); // 'req_a8Vd…'
 */
export function newRequestId(): string {
  return `req_${systemRandom.base62(20)}`;
}

/**
 * A ready-to-use sandbox secret key: `sk_test_` followed by 24 random base62 characters.
 *
 * @example
 * newTestApiKey(); // 'sk_test_Jq1…'
 */
export function newTestApiKey(random: RandomSource = systemRandom): string {
  return `sk_test_${random.base62(24)}`;
}
