// The testing entry's key read at once from the memory store its sandbox runs on: what `snapshot()` and `clock.now()` answer synchronously.
import { type AccountData, accountDataOf } from '../service/account-data.js';
import type { MemoryStore } from '../store/memory/memory-store.js';
import type { EndpointRecord } from '../store/webhook-records.js';

/**
 * A key's data as plain records (copies), read at once from the memory store itself, not through
 * the store seam (whose calls answer with promises): the testing entry's sandbox always runs on
 * the memory store, so `snapshot()` stays synchronous without asking whether a store answered at
 * once. The same shaping as the seam's `readAccountData` (`accountDataOf`).
 *
 * @example
 * heldAccountData(runtime.memory, apiKey, runtime.state.defaultEndpoint).payments; // [] for a new key
 */
export function heldAccountData(
  memory: MemoryStore,
  apiKey: string,
  defaultEndpoint: EndpointRecord | undefined,
): AccountData {
  const account = memory.find(apiKey);
  if (account === undefined) return accountDataOf(undefined, defaultEndpoint);
  const state = account.webhooks;
  return accountDataOf(
    {
      offsetSeconds: account.offsetSeconds,
      faults: account.faults,
      payments: account.storedPayments(),
      idempotencyRecords: account.listIdempotencyRecords(),
      webhooks:
        state === undefined
          ? undefined
          : {
              endpoints: state.listEndpoints(),
              queued: state.queuedAttempts(),
              events: state.listEvents(),
              log: state.deliveryLog(),
            },
    },
    defaultEndpoint,
  );
}

/**
 * The key's clock now (ms epoch), read at once from the memory store: the server's time plus the
 * key's offset.
 *
 * @example
 * heldAccountNow(runtime.memory, apiKey, runtime.state.clock.now()); // serverNow for a new key
 */
export function heldAccountNow(memory: MemoryStore, apiKey: string, serverNow: number): number {
  const account = memory.find(apiKey);
  return account === undefined ? serverNow : account.now(serverNow);
}
