// A binary min-heap, used to find the next pending payment to settle in O(log n).

/**
 * A priority queue that pops the smallest item first, by `compare`.
 *
 * @example
 * const heap = new MinHeap<number>((a, b) => a - b);
 * heap.push(3); heap.push(1);
 * heap.pop(); // 1
 */
export class MinHeap<T> {
  private readonly heap: T[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.heap.length;
  }

  /** The smallest item, without removing it. */
  peek(): T | undefined {
    return this.heap[0];
  }

  push(item: T): void {
    const items = this.heap;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.compare(items[index] as T, items[parent] as T) >= 0) break;
      [items[index], items[parent]] = [items[parent] as T, items[index] as T];
      index = parent;
    }
  }

  pop(): T | undefined {
    const items = this.heap;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < items.length && this.compare(items[left] as T, items[smallest] as T) < 0) {
        smallest = left;
      }
      if (right < items.length && this.compare(items[right] as T, items[smallest] as T) < 0) {
        smallest = right;
      }
      if (smallest === index) break;
      [items[index], items[smallest]] = [items[smallest] as T, items[index] as T];
      index = smallest;
    }
    return top;
  }

  /** Every item, in no particular order (a copy). */
  items(): T[] {
    return [...this.heap];
  }

  clear(): void {
    this.heap.length = 0;
  }
}
