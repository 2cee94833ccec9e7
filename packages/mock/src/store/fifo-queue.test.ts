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
});
