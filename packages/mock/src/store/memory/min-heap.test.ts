import { describe, expect, it } from 'vitest';
import { MinHeap } from './min-heap.js';

describe('MinHeap', () => {
  it('pops items in ascending order', () => {
    const heap = new MinHeap<number>((a, b) => a - b);
    const values = Array.from({ length: 500 }, (_, index) => (index * 7919) % 503);
    for (const value of values) heap.push(value);
    expect(heap.size).toBe(500);
    const popped: number[] = [];
    while (heap.size > 0) popped.push(heap.pop() as number);
    expect(popped).toEqual([...values].sort((a, b) => a - b));
    expect(heap.pop()).toBeUndefined();
  });

  it('peeks without removing', () => {
    const heap = new MinHeap<number>((a, b) => a - b);
    heap.push(2);
    heap.push(1);
    expect(heap.peek()).toBe(1);
    expect(heap.size).toBe(2);
  });
});
