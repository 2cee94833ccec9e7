// A request's store budget on injected time: waits in a row add up, waits side by side count once, and work outliving its request is not bounded by it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreUnavailableError } from '../store.js';
import { currentStoreBudget, outsideStoreBudget, StoreBudget, withStoreBudget } from './budget.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A reply that comes `ms` after it is asked for. */
const reply = (ms: number, value = 'ok') =>
  new Promise<string>((resolve) => setTimeout(() => resolve(value), ms));

describe('StoreBudget', () => {
  it('adds up the waits of one request: the one that runs over fails when the budget is spent', async () => {
    const budget = new StoreBudget(2000);
    await expect(settle(budget.wait(reply(1200)), 1200)).resolves.toBe('ok');
    const second = budget.wait(reply(1200));
    const outcome = settle(second, 800);
    await expect(outcome).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(outcome).rejects.toThrow('waited 2000 ms on the store in all');
    // Spent: the next wait fails at once.
    await expect(budget.wait(reply(1))).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('counts waits side by side once', async () => {
    const budget = new StoreBudget(2000);
    const both = Promise.all([budget.wait(reply(1500, 'a')), budget.wait(reply(1500, 'b'))]);
    await expect(settle(both, 1500)).resolves.toEqual(['a', 'b']);
    await expect(settle(budget.wait(reply(400, 'c')), 400)).resolves.toBe('c');
  });

  it('is the budget of the request it runs in, and none once the request is answered', async () => {
    let inside: StoreBudget | undefined;
    let later: Promise<StoreBudget | undefined> | undefined;
    await withStoreBudget(2000, async () => {
      inside = currentStoreBudget();
      // Work the request starts that goes on after its answer (a webhook dispatcher's round).
      later = reply(10).then(() => currentStoreBudget());
    });
    expect(inside?.limitMs).toBe(2000);
    // What follows a change made (queuing its webhooks) runs outside it.
    const outside = await withStoreBudget(2000, () =>
      outsideStoreBudget(async () => currentStoreBudget()),
    );
    expect(outside).toBeUndefined();
    await vi.advanceTimersByTimeAsync(10);
    expect(await later).toBeUndefined();
    expect(currentStoreBudget()).toBeUndefined();
  });
});

/** `promise`, once `ms` of injected time has passed. */
async function settle<T>(promise: Promise<T>, ms: number): Promise<T> {
  promise.catch(() => {});
  await vi.advanceTimersByTimeAsync(ms);
  return promise;
}
