import { describe, expect, it } from 'vitest';
import { handleOf, MemorySeam } from './memory/memory-seam.js';
import { MemoryStore } from './memory/memory-store.js';
import { OpeningStore } from './opening-store.js';

const limits = {
  maxPaymentsPerKey: 10,
  maxPaymentsTotal: 100,
  maxIdempotencyRecordsPerKey: 10,
  maxIdempotencyRecordsTotal: 100,
  maxAccounts: 10,
  memoryBudgetBytes: 1 << 20,
  keyMemoryBudgetBytes: 1 << 16,
  idleMs: 3_600_000,
};

describe('OpeningStore', () => {
  it('waits for the open, then hands every call to the opened store', async () => {
    const memory = new MemoryStore(limits);
    const inner = new MemorySeam(memory);
    let opens = 0;
    const store = new OpeningStore(async () => {
      opens++;
      return inner;
    });
    const account = await store.open('sk_test_opening_0001');
    expect(account).toBe(handleOf(memory.open('sk_test_opening_0001')));
    expect(await store.find('sk_test_opening_0002')).toBeUndefined();
    expect(await store.admit()).toBe(true);
    expect(await store.reset('sk_test_opening_0001')).toBe(0);
    expect(opens).toBe(1);
  });

  it('rejects each call while the open fails, and opens again at the next call', async () => {
    const inner = new MemorySeam(new MemoryStore(limits));
    let fail = true;
    const store = new OpeningStore(async () => {
      if (fail) throw new Error('unreachable');
      return inner;
    });
    await expect(store.find('sk_test_opening_0001')).rejects.toThrow('unreachable');
    await expect(store.ready()).rejects.toThrow('unreachable');
    store.sweep(0); // nothing to sweep yet: no throw
    fail = false;
    await expect(store.admit()).resolves.toBe(true);
    expect(store.current).toBe(inner);
  });

  it('keeps a final failure final', async () => {
    let opens = 0;
    const store = new OpeningStore(
      async () => {
        opens++;
        throw new Error('another format');
      },
      () => false,
    );
    await expect(store.ready()).rejects.toThrow('another format');
    await expect(store.find('sk_test_opening_0001')).rejects.toThrow('another format');
    expect(opens).toBe(1);
  });

  it('refuses calls once closed', async () => {
    const store = new OpeningStore(async () => new MemorySeam(new MemoryStore(limits)));
    expect(store.close()).toBeUndefined();
    await expect(store.find('sk_test_opening_0001')).rejects.toThrow('closed');
  });
});
