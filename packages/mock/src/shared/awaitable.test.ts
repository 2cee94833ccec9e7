import { describe, expect, it } from 'vitest';
import { maybeSync, wait } from './awaitable.js';

describe('maybeSync', () => {
  it('runs to the end at once while every value is plain', () => {
    const result = maybeSync(function* () {
      const a = yield* wait(1);
      const b = yield* wait(a + 1);
      return a + b;
    });
    expect(result).toBe(3);
  });

  it('continues asynchronously from the first promise', async () => {
    const result = maybeSync(function* () {
      const a = yield* wait(1);
      const b = yield* wait(Promise.resolve(a + 1));
      const c = yield* wait(b + 1);
      return [a, b, c];
    });
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toEqual([1, 2, 3]);
  });

  it('throws a rejection into the body, where it can be caught', async () => {
    const result = maybeSync(function* () {
      try {
        yield* wait(Promise.reject(new Error('refused')));
        return 'unreachable';
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(await result).toBe('refused');
  });

  it('rejects with what the body throws after a promise', async () => {
    const result = maybeSync(function* () {
      yield* wait(Promise.resolve(1));
      throw new RangeError('bad');
    });
    await expect(result).rejects.toThrow(RangeError);
  });
});
