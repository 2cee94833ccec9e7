// Code that waits on values that may or may not be promises: synchronous while they are not, asynchronous from the first that is.

/** A value, or a promise of it. */
type MaybePromise<T> = T | Promise<T>;

/**
 * Waits for one value inside a `maybeSync` body (`yield*` it): typed as the value itself.
 *
 * @example
 * const account = yield* wait(store.find(apiKey));
 */
export function* wait<T>(value: MaybePromise<T>): Generator<unknown, T, unknown> {
  // `maybeSync` sends back what it waited for: the value itself, or what the promise gave.
  return (yield value) as T;
}

/**
 * Runs a generator body that `yield* wait(…)`s values: while every value is a plain one it runs
 * to the end in this call and returns its result (a memory store's answers allocate no promise);
 * from the first promise on it continues asynchronously and returns a promise of the result.
 * A throw or a rejection surfaces in the body, where a `try` can catch it.
 *
 * @example
 * const data = maybeSync(function* () {
 *   const account = yield* wait(store.find(apiKey));
 *   return account === undefined ? 0 : yield* wait(account.listPayments(10));
 * });
 * if (!(data instanceof Promise)) use(data); // the memory store answered at once
 */
export function maybeSync<T>(body: () => Generator<unknown, T, unknown>): MaybePromise<T> {
  const generator = body();
  let step = generator.next();
  while (step.done !== true) {
    if (step.value instanceof Promise) return finishAsync(generator, step.value);
    step = generator.next(step.value);
  }
  return step.value;
}

async function finishAsync<T>(
  generator: Generator<unknown, T, unknown>,
  first: Promise<unknown>,
): Promise<T> {
  let waiting: unknown = first;
  for (;;) {
    let value: unknown;
    let failed = false;
    try {
      value = await waiting;
    } catch (error) {
      failed = true;
      value = error;
    }
    const step = failed ? generator.throw(value) : generator.next(value);
    if (step.done === true) return step.value;
    waiting = step.value;
  }
}
