// Time as the runner sees it: injected, so tests move it instead of sleeping.

/** The clock a run reads and waits on. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Spaces calls at most `rate` per second on `clock`: each call waits for its slot.
 *
 * @example
 * const take = createRateLimiter(25, systemClock);
 * await take(); // immediately; the next call waits 40 ms
 */
export function createRateLimiter(rate: number, clock: Clock): () => Promise<void> {
  if (!Number.isFinite(rate)) return async () => {};
  const interval = 1000 / rate;
  let next = Number.NEGATIVE_INFINITY;
  return async () => {
    const now = clock.now();
    const slot = Math.max(now, next);
    next = slot + interval;
    if (slot > now) await clock.sleep(slot - now);
  };
}
