import { describe, expect, it } from 'vitest';
import { FifoQueue } from './fifo-queue.js';

describe('FifoQueue', () => {
  it('returns the oldest live item and drops dead ones before it', () => {
    const queue = new FifoQueue<number>();
    for (const item of [1, 2, 3]) queue.push(item);
    const live = new Set([2, 3]);
    expect(queue.oldest((item) => live.has(item))).toBe(2);
    expect(queue.length).toBe(2);
    live.clear();
    expect(queue.oldest((item) => live.has(item))).toBeUndefined();
    expect(queue.length).toBe(0);
  });

  it('compacts when dead items dominate, keeping order', () => {
    const queue = new FifoQueue<number>();
    const live = new Set<number>();
    for (let item = 0; item < 5000; item++) {
      queue.push(item);
      if (item % 100 === 0) live.add(item);
    }
    queue.compact(live.size, (item) => live.has(item));
    expect(queue.length).toBe(50);
    expect(queue.oldest((item) => live.has(item))).toBe(0);
  });

  it('keeps at most 1.25 times the live items plus 64 under add-then-remove churn', () => {
    // The 503 path: a record is added, then forgotten at once, thousands of times.
    const queue = new FifoQueue<number>();
    const live = new Set<number>();
    for (let item = 0; item < 100; item++) live.add(item);
    for (const item of live) queue.push(item);
    const isLive = (item: number) => live.has(item);
    let largest = 0;
    for (let item = 100; item < 50_000; item++) {
      queue.push(item);
      queue.compact(live.size, isLive);
      largest = Math.max(largest, queue.length);
    }
    expect(largest).toBeLessThanOrEqual(100 + 25 + 64 + 1);
    expect(queue.oldest(isLive)).toBe(0);
  });
});
