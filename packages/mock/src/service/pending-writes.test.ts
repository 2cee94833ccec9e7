// PendingWrites: the writes sent without waiting, waited for by a reader, bounded in number.
import { describe, expect, it } from 'vitest';
import type { AccountStore, HeldWrites, SandboxStore } from '../store/store.js';
import { testSandboxState } from '../test-support/sandbox-state.js';
import { AccountService } from './account-service.js';
import { MAX_PENDING_WRITES, PendingWrites } from './pending-writes.js';

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

  it('is full at its bound and takes writes again once some settle', async () => {
    const writes = new PendingWrites(2);
    let finish = () => {};
    writes.add(
      new Promise<void>((resolve) => {
        finish = resolve;
      }),
    );
    expect(writes.full).toBe(false);
    writes.add(new Promise<void>(() => {}));
    expect(writes.full).toBe(true);
    finish();
    await Promise.resolve();
    await Promise.resolve();
    expect(writes.full).toBe(false);
    expect(new PendingWrites().full).toBe(false);
    expect(MAX_PENDING_WRITES).toBeGreaterThan(0);
  });
});

describe('the inspector on a store that never answers a record', () => {
  it('keeps at most the bound of records in flight and skips the rest, without throwing', async () => {
    let sent = 0;
    // An account whose request records never settle (a store that stopped answering them).
    const account = {
      closed: false,
      now: (serverNow: number) => serverNow,
      recordRequest: (_entry: unknown, held: HeldWrites) => {
        sent++;
        held.add(new Promise<void>(() => {}));
      },
    } as unknown as AccountStore;
    const store = { find: () => account } as unknown as SandboxStore;
    const sandbox = testSandboxState(store, new PendingWrites(3));
    const service = new AccountService(sandbox, 'sk_test_pending_records');
    const entry = {
      requestId: 'req_1',
      method: 'GET',
      path: '/v1/payments',
      status: 200,
      request: null,
      response: null,
    };
    for (let index = 0; index < 10; index++) {
      service.inspector.recordRequest(entry as never, Date.UTC(2025, 0, 15));
    }
    // The service opened no session: each record finds the account first (a later tick).
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toBe(3);
    expect(sandbox.pendingRecords.size).toBe(3);
  });
});
