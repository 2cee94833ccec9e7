// How long one request may wait on the store in all: its round trips together, not each one.
import { AsyncLocalStorage } from 'node:async_hooks';
import { StoreUnavailableError } from '../store.js';

/**
 * How long a request may wait on the store in all, and one command at most (ms): past it, the
 * request answers `503 store_unavailable`.
 */
export const STORE_WAIT_MS = 2000;

/**
 * The time one request may still wait on the store. Waits that overlap count once; time spent
 * elsewhere (an injected latency, the handler) does not count. Once spent, every further wait
 * fails at once, and a wait in progress fails when it runs out.
 *
 * @example
 * const budget = new StoreBudget(2000);
 * const reply = await budget.wait(client.get('psm:format')); // StoreUnavailableError past 2 s in all
 */
export class StoreBudget {
  private spent = 0;
  private waiting = 0;
  private since = 0;
  /** Set when the request is answered: work it started that goes on is not bounded by it. */
  ended = false;

  constructor(readonly limitMs: number) {}

  /** Waits for `promise`, or fails with `StoreUnavailableError` when the budget runs out first. */
  async wait<T>(promise: Promise<T>): Promise<T> {
    const now = performance.now();
    const spent = this.spent + (this.waiting > 0 ? now - this.since : 0);
    const left = this.limitMs - spent;
    if (left <= 0) {
      promise.catch(() => {});
      throw this.spentError();
    }
    if (this.waiting === 0) this.since = now;
    this.waiting++;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.spentError()), left);
    });
    try {
      return await Promise.race([promise, expired]);
    } finally {
      clearTimeout(timer);
      this.waiting--;
      if (this.waiting === 0) this.spent += performance.now() - this.since;
    }
  }

  private spentError(): StoreUnavailableError {
    return new StoreUnavailableError(
      `the request waited ${this.limitMs} ms on the store in all, without all its answers`,
    );
  }
}

const budgets = new AsyncLocalStorage<StoreBudget>();

/**
 * Runs `run` (one request) with `limitMs` to wait on the store in all: each store call made in
 * it (`currentStoreBudget`) waits at most what is left.
 *
 * @example
 * app.use('*', (c, next) => withStoreBudget(2000, next));
 */
export async function withStoreBudget<T>(limitMs: number, run: () => Promise<T>): Promise<T> {
  const budget = new StoreBudget(limitMs);
  try {
    return await budgets.run(budget, run);
  } finally {
    budget.ended = true;
  }
}

/**
 * The budget of the request this call is made for, if any (none for background work, or work
 * a request started that outlives it).
 *
 * @example
 * const budget = currentStoreBudget();
 * const reply = budget === undefined ? await call() : await budget.wait(call());
 */
export function currentStoreBudget(): StoreBudget | undefined {
  const budget = budgets.getStore();
  return budget === undefined || budget.ended ? undefined : budget;
}

/**
 * Runs `run` outside any request's store budget: work that follows a change already made (queuing
 * its webhooks) is not cut short, so nothing the change promised is lost.
 *
 * @example
 * await outsideStoreBudget(() => webhooks.deliver(events));
 */
export function outsideStoreBudget<T>(run: () => Promise<T>): Promise<T> {
  return budgets.exit(run);
}
