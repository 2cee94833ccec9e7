// Injected time for scenarios over real HTTP: fake timers and Date, moved on while real I/O runs between steps.
import { vi } from 'vitest';

/**
 * Fakes `setTimeout`, `clearTimeout` and `Date` (the SDK's backoff, Retry-After and timeouts,
 * and the mock's injected latency), leaving I/O and `setImmediate` real.
 *
 * @example
 * beforeEach(useFakeTime);
 * afterEach(() => vi.useRealTimers());
 */
export function useFakeTime(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
}

/** Fake time after which `runOnFakeTime` gives up: far beyond any wait the scenarios set up. */
const fakeTimeBudgetMs = 10 * 60_000;

/**
 * Moves fake time on in steps of `stepMs` until `promise` settles, letting real I/O (the HTTP
 * exchange with the mock) run between steps; returns what it settles with.
 *
 * @example
 * const page = await runOnFakeTime(client.payments.list());
 */
export async function runOnFakeTime<T>(promise: Promise<T>, stepMs = 10): Promise<T> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  for (let elapsed = 0; !settled; elapsed += stepMs) {
    if (elapsed > fakeTimeBudgetMs) {
      throw new Error(`still pending after ${fakeTimeBudgetMs} ms of fake time`);
    }
    await vi.advanceTimersByTimeAsync(stepMs);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return promise;
}
