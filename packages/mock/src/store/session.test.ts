// One request's session, the same on every store: what it reads and claims when it opens, and what it answers from that read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asyncStore } from '../test-support/async-store.js';
import { startTestRedis, type TestRedis } from '../test-support/redis-server.js';
import {
  fleet,
  inFlightRecord,
  paymentRecord,
  ROOMY_LIMITS,
} from '../test-support/redis-stores.js';
import { MemorySeam } from './memory/memory-seam.js';
import { MemoryStore } from './memory/memory-store.js';
import type { IdempotencyRecord } from './records.js';
import type { SandboxStore } from './store.js';

let redis: TestRedis;
let closeRedis: (() => Promise<void>) | undefined;

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await closeRedis?.();
  await redis?.stop();
});

const STORES: { name: string; make: () => Promise<SandboxStore> }[] = [
  { name: 'the memory store', make: async () => new MemorySeam(new MemoryStore(ROOMY_LIMITS)) },
  {
    name: 'a store that answers later',
    make: async () => asyncStore(new MemoryStore(ROOMY_LIMITS)),
  },
  {
    name: 'the Valkey/Redis store',
    make: async () => {
      const made = await fleet(redis.url, 1);
      const previous = closeRedis;
      closeRedis = async () => {
        await previous?.();
        await made.close();
      };
      return made.stores[0] as SandboxStore;
    },
  },
];

/** A claim of `key` on the key's clock, as the service builds it. */
const claimOf =
  (key: string, fingerprint = 'h1') =>
  (accountNow: number): IdempotencyRecord =>
    inFlightRecord(key, fingerprint, accountNow + 60_000);

for (const { name, make } of STORES) {
  describe(`a request's session on ${name}`, () => {
    const KEY = 'sk_test_session_0001';

    it('finds nothing for a key that holds nothing, and creates nothing', async () => {
      const store = await make();
      const session = await store.session(KEY, { write: false, serverNow: 0, paymentId: 'pay_1' });
      expect(session.account).toBeUndefined();
      expect(session.claim).toEqual({ kind: 'skipped' });
      expect(session.paymentAsRead('pay_1')).toEqual({ payment: undefined });
      expect(session.mayHaveDue(Number.MAX_SAFE_INTEGER)).toBe(false);
      expect(await store.find(KEY)).toBeUndefined();
    });

    it("a write opens the account, claims the key, reads the path's payment and asks for room", async () => {
      const store = await make();
      const opened = await store.session(KEY, { write: true, serverNow: 0 });
      if (opened.account === undefined) throw new Error('a write opens the account');
      await opened.account.createPayment(paymentRecord('pay_1'));
      const session = await store.session(KEY, {
        write: true,
        serverNow: 0,
        claim: claimOf('order-1'),
        paymentId: 'pay_1',
      });
      expect(session.claim.kind).toBe('claimed');
      expect(session.paymentAsRead('pay_1')?.payment?.id).toBe('pay_1');
      // Another payment than the one asked for was not read: the caller reads it.
      expect(session.paymentAsRead('pay_2')).toBeUndefined();
      expect(await session.admit()).toBe(true);
      // The claim is the store's: the same key again finds it held, in flight.
      const again = await store.session(KEY, {
        write: true,
        serverNow: 0,
        claim: claimOf('order-1', 'h2'),
      });
      expect(again.claim.kind).toBe('held');
      if (again.claim.kind !== 'held') return;
      expect(again.claim.record.bodyFingerprint).toBe('h1');
      expect(again.claim.record.response).toBeUndefined();
    });

    it('claims nothing while a fault is armed (the faults answer first)', async () => {
      const store = await make();
      const account = await store.open(KEY);
      await account.setFaults({ latency_ms: 100 });
      const session = await store.session(KEY, {
        write: true,
        serverNow: 0,
        claim: claimOf('order-2'),
      });
      expect(session.claim).toEqual({ kind: 'skipped' });
      expect(session.account?.faults.latency_ms).toBe(100);
      expect(await session.account?.idempotencyRecord('order-2')).toBeUndefined();
    });

    it('says when a payment may be due as read, and reads the payment again once it settled some', async () => {
      const store = await make();
      const account = await store.open(KEY);
      await account.createPayment(paymentRecord('pay_p', { status: 'PENDING' }, 5000));
      const session = await store.session(KEY, { write: false, serverNow: 0, paymentId: 'pay_p' });
      expect(session.mayHaveDue(4999)).toBe(false);
      expect(session.mayHaveDue(5000)).toBe(true);
      expect(session.paymentAsRead('pay_p')?.payment?.payment.status).toBe('PENDING');
      const due = await session.takeDueSettlements(5000);
      expect(due.map((stored) => stored.id)).toEqual(['pay_p']);
      // What was read may have settled: not answered from the read any more.
      expect(session.paymentAsRead('pay_p')).toBeUndefined();
      expect(await session.takeDueSettlements(5000)).toEqual([]);
    });

    it('runs a request’s work on the session it read, and answers what the work answers', async () => {
      const store = await make();
      const account = await store.open(KEY);
      await account.createPayment(paymentRecord('pay_w'));
      const ask = { write: false, serverNow: 0, paymentId: 'pay_w' };
      const answered = await store.withSession(KEY, ask, (session) => ({
        found: session.paymentAsRead('pay_w')?.payment?.id,
        account: session.account !== undefined,
      }));
      expect(answered).toEqual({ found: 'pay_w', account: true });
      // A throw of the work is the caller's (a throw or a rejection), after the read.
      await expect(
        (async () =>
          store.withSession(KEY, ask, () => {
            throw new Error('work failed');
          }))(),
      ).rejects.toThrow('work failed');
    });
  });
}

describe('when a store runs the work of a request', () => {
  it('the memory store runs it at once, in the caller’s tick, and answers its result as it is', () => {
    const store = new MemorySeam(new MemoryStore(ROOMY_LIMITS));
    const result = { answered: true };
    let ran = false;
    const answered = store.withSession(
      'sk_test_session_0002',
      { write: false, serverNow: 0, paymentId: 'pay_1' },
      (session) => {
        ran = true;
        expect(session.paymentAsRead('pay_1')).toEqual({ payment: undefined });
        return result;
      },
    );
    expect(ran).toBe(true);
    expect(answered).toBe(result);
  });

  it('a store that answers later runs it on a later tick and answers a promise', async () => {
    const store = asyncStore(new MemoryStore(ROOMY_LIMITS));
    let ran = false;
    const answered = store.withSession(
      'sk_test_session_0003',
      { write: false, serverNow: 0 },
      () => {
        ran = true;
        return 7;
      },
    );
    expect(ran).toBe(false);
    expect(answered).toBeInstanceOf(Promise);
    expect(await answered).toBe(7);
    expect(ran).toBe(true);
  });
});
