// The run's one source of randomness (markers, sandbox keys, Idempotency-Keys): seeded, so `--seed N` repeats a run's values.
import { createHash, randomInt } from 'node:crypto';

/** The largest seed `--seed` accepts (seeds are 32-bit unsigned integers). */
export const MAX_SEED = 2 ** 32 - 1;

/** Deterministic random values for one scope of a run; the same seed and scope give the same values. */
export interface RandomSource {
  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string;
  /** A version 4 UUID built from this source's bytes. */
  uuid(): string;
  /** An independent source for a sub-scope (a scenario), unaffected by what other scopes draw. */
  fork(scope: string): RandomSource;
}

/**
 * A fresh seed, for a run that was not given one (the report prints it, so the run can be repeated).
 *
 * @example
 * const seed = randomSeed(); // 2868364291
 */
export function randomSeed(): number {
  return randomInt(0, MAX_SEED);
}

/**
 * Whether a value is a seed `--seed` accepts: a whole number from 0 to 4294967295.
 *
 * @example
 * isSeed(42); // true
 * isSeed(-1); // false
 */
export function isSeed(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_SEED;
}

/**
 * A random source seeded with `seed`: SHA-256 of `seed:scope:counter`, so a scope's values depend
 * only on the seed and the scope, not on which other scenarios ran before it.
 *
 * @example
 * const random = createRandomSource(42).fork('idempotency');
 * random.uuid(); // the same UUID in every run with --seed 42
 */
export function createRandomSource(seed: number, scope = 'run'): RandomSource {
  let counter = 0;
  const bytes = (count: number): Buffer => {
    const blocks: Buffer[] = [];
    let length = 0;
    while (length < count) {
      const block = createHash('sha256').update(`${seed}:${scope}:${counter}`).digest();
      counter += 1;
      blocks.push(block);
      length += block.length;
    }
    return Buffer.concat(blocks).subarray(0, count);
  };
  return {
    hex: (count) => bytes(count).toString('hex'),
    uuid() {
      const value = bytes(16);
      value[6] = ((value[6] ?? 0) & 0x0f) | 0x40;
      value[8] = ((value[8] ?? 0) & 0x3f) | 0x80;
      const hex = value.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
    fork: (child) => createRandomSource(seed, `${scope}/${child}`),
  };
}
