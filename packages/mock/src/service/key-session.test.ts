// One request's way to its key: the session it opened, the account it holds, and what it reads again.
import { describe, expect, it } from 'vitest';
import { MemorySeam } from '../store/memory/memory-seam.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import { asyncStore } from '../test-support/async-store.js';
import { inFlightRecord, paymentRecord, ROOMY_LIMITS } from '../test-support/redis-stores.js';
import { testSandboxState } from '../test-support/sandbox-state.js';
import { KeySession } from './key-session.js';

const KEY = 'sk_test_key_session_01';

for (const { name, seam } of [
  { name: 'on the memory store', seam: (memory: MemoryStore) => new MemorySeam(memory) },
  { name: 'on a store that answers later', seam: asyncStore },
]) {
  describe(`KeySession ${name}`, () => {
    function keySession() {
      const store = seam(new MemoryStore(ROOMY_LIMITS));
      const sandbox = testSandboxState(store);
      return { store, key: new KeySession(sandbox, KEY), serverNow: sandbox.clock.now() };
    }

    it('holds the account its session read, and reads it again once a reset closed it', async () => {
      const { store, key, serverNow } = keySession();
      const opened = await key.begin({ write: true, serverNow });
      expect(key.account).toBe(opened.account);
      expect(await key.find()).toBe(opened.account);
      await store.reset(KEY);
      expect(key.account).toBeUndefined();
      // A read finds nothing (the reset took it all); a write opens a new account.
      expect(await key.find()).toBeUndefined();
      const reopened = await key.open();
      expect(reopened).not.toBe(opened.account);
      expect(reopened.closed).toBe(false);
    });

    it('hands the claim its session made to the key step once', async () => {
      const { key, serverNow } = keySession();
      await key.begin({
        write: true,
        serverNow,
        claim: (accountNow) => inFlightRecord('order-1', 'h1', accountNow + 1000),
      });
      const taken = key.sessionClaim();
      expect(taken?.claim.kind).toBe('claimed');
      expect(key.sessionClaim()).toBeUndefined();
    });

    it('drops what its session read once the request waited (the account stays held)', async () => {
      const { key, serverNow } = keySession();
      const account = (await key.begin({ write: true, serverNow })).account;
      await account?.createPayment(paymentRecord('pay_1'));
      const session = await key.begin({ write: false, serverNow, paymentId: 'pay_1' });
      expect(key.session).toBe(session);
      key.waited();
      expect(key.session).toBeUndefined();
      expect(key.account).toBe(session.account);
    });
  });
}
