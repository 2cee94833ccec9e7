import { describe, expect, it } from 'vitest';
import { PendingWrites } from './pending-writes.js';

describe('PendingWrites', () => {
  it('resolves at once with nothing pending', async () => {
    const writes = new PendingWrites();
    await writes.settled();
    expect(writes.size).toBe(0);
  });

  it('waits for every write, failed ones included, and those added while waiting', async () => {
    const writes = new PendingWrites();
    const order: string[] = [];
    let finishFirst = () => {};
    writes.add(
      new Promise<void>((resolve) => {
        finishFirst = resolve;
      }).then(() => {
        order.push('first');
        writes.add(Promise.resolve().then(() => order.push('added while waiting')));
      }),
    );
    writes.add(Promise.reject(new Error('store down')));
    const waiting = writes.settled().then(() => order.push('settled'));
    expect(writes.size).toBe(2);
    finishFirst();
    await waiting;
    expect(order).toEqual(['first', 'added while waiting', 'settled']);
    expect(writes.size).toBe(0);
  });
});
