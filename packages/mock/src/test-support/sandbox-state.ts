// Test support: the state every account service of a test shares, over a given store (a fixed clock, seeded ids).
import { createTokenTable } from '../domain/tokens.js';
import { PUBLIC_AND_LOOPBACK } from '../domain/webhook-address.js';
import { PendingWrites } from '../service/pending-writes.js';
import type { SandboxState } from '../service/sandbox-state.js';
import { seededRandom } from '../shared/ids.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import type { AccountStore, SandboxStore } from '../store/store.js';

/**
 * A `SandboxState` over `store`: the clock at 2025-01-15, a 5 s settlement delay, one day of
 * Idempotency-Key records, ids from seed 1; `pendingRecords` as given (its bound) or the default.
 *
 * @example
 * const service = new AccountService(testSandboxState(new MemoryStore()), 'sk_test_12345678');
 */
export function testSandboxState(
  store: SandboxStore,
  pendingRecords = new PendingWrites(),
): SandboxState {
  return {
    store,
    tokens: createTokenTable(),
    clock: { now: () => Date.UTC(2025, 0, 15) },
    settlementDelayMs: 5000,
    idempotencyTtlMs: 86_400_000,
    maxPaymentsPerKey: 10_000,
    defaultEndpoint: undefined,
    heldRequests: new Map(),
    pendingRecords,
    webhookPolicy: PUBLIC_AND_LOOPBACK,
    random: seededRandom(1),
  };
}

/**
 * A memory store with room for every test (`maxPaymentsPerKey` as given, 100 by default).
 *
 * @example
 * const memory = roomyMemoryStore(5);
 */
export function roomyMemoryStore(maxPaymentsPerKey = 100): MemoryStore {
  return new MemoryStore({
    maxPaymentsPerKey,
    maxPaymentsTotal: 100,
    maxIdempotencyRecordsPerKey: 100,
    maxIdempotencyRecordsTotal: 100,
    maxAccounts: 10,
    memoryBudgetBytes: 1 << 24,
    keyMemoryBudgetBytes: 1 << 20,
    idleMs: 3_600_000,
  });
}

/**
 * `inner` with each account it hands out (`find`, `open`) passed through `wrap`: a store whose
 * accounts answer some calls their own way. Sessions are `inner`'s (the service then finds the
 * account again through `find` for each call it makes outside them).
 *
 * @example
 * const store = wrappedAccounts(new MemorySeam(memory), (account) => refusing(account));
 */
export function wrappedAccounts(
  inner: SandboxStore,
  wrap: (account: AccountStore) => AccountStore,
): SandboxStore {
  return {
    find: async (apiKey) => {
      const account = await inner.find(apiKey);
      return account === undefined ? undefined : wrap(account);
    },
    open: async (apiKey) => wrap(await inner.open(apiKey)),
    admit: () => inner.admit(),
    reset: (apiKey) => inner.reset(apiKey),
    release: (account) => inner.release(account),
    sweep: (serverNow) => inner.sweep(serverNow),
    session: (apiKey, ask) => inner.session(apiKey, ask),
    withSession: (apiKey, ask, work) => inner.withSession(apiKey, ask, work),
  };
}
