import { describe, expect, it } from 'vitest';
import { PendingWrites } from './pending-writes.js';

describe('PendingWrites', () => {
  it('resolves at once with nothing pending', async () => {
    const writes = new PendingWrites();
    await writes.settled();
    expect(writes.size).toBe(0);
  });

  it('waits for every write added before it, failed ones included, not those added meanwhile', async () => {
    const writes = new PendingWrites();
    const order: string[] = [];
    let finishFirst = () => {};
    let finishLater = () => {};
    writes.add(
      new Promise<void>((resolve) => {
        finishFirst = resolve;
      }).then(() => order.push('first')),
    );
    writes.add(Promise.reject(new Error('store down')));
    const waiting = writes.settled().then(() => order.push('settled'));
    expect(writes.size).toBe(2);
    // Added while the reader waits: it does not hold the reader.
    writes.add(
      new Promise<void>((resolve) => {
        finishLater = resolve;
      }).then(() => order.push('later')),
    );
    finishFirst();
    await waiting;
    expect(order).toEqual(['first', 'settled']);
    expect(writes.size).toBe(1);
    finishLater();
    await writes.settled();
    expect(order).toEqual(['first', 'settled', 'later']);
    expect(writes.size).toBe(0);
  });
});
