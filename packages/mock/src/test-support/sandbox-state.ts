// Test support: the state every account service of a test shares, over a given store (a fixed clock, seeded ids).
import { createTokenTable } from '../domain/tokens.js';
import { PUBLIC_AND_LOOPBACK } from '../domain/webhook-address.js';
import { PendingWrites } from '../service/pending-writes.js';
import type { SandboxState } from '../service/sandbox-state.js';
import { seededRandom } from '../shared/ids.js';
import type { SandboxStore } from '../store/store.js';

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
    defaultEndpoint: undefined,
    heldRequests: new Map(),
    pendingRecords,
    webhookPolicy: PUBLIC_AND_LOOPBACK,
    random: seededRandom(1),
  };
}
