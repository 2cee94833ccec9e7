// The webhook retry schedule: exponential backoff with ±20% jitter, on the key's sandbox clock.

/**
 * Seconds to wait before each retry: the first retry 5 s after the first attempt fails, then
 * 30 s, 2 min, 10 min, 30 min, 1 h, 2 h and 4 h; nine attempts over about 7.7 hours in all.
 */
export const RETRY_DELAYS_SECONDS = [5, 30, 120, 600, 1800, 3600, 7200, 14400] as const;

/** Attempts of one delivery: the first one and every retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** How far a delay may be moved either way, as a fraction of it. */
export const JITTER = 0.2;

/**
 * The delay before the attempt that follows attempt `attempt` (1-based), in milliseconds with
 * ±20% jitter, or undefined when no attempt follows.
 *
 * @example
 * retryDelayMs(1, () => 0.5); // 5000
 * retryDelayMs(1, () => 0); // 4000 (−20%)
 * retryDelayMs(9); // undefined: that was the last attempt
 */
export function retryDelayMs(
  attempt: number,
  random: () => number = Math.random,
): number | undefined {
  const seconds = RETRY_DELAYS_SECONDS[attempt - 1];
  if (seconds === undefined) return undefined;
  return Math.round(seconds * 1000 * (1 - JITTER + 2 * JITTER * random()));
}
