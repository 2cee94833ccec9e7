// What the memory store tells of each change it commits, for a store that keeps them: it keeps nothing of them itself.
import type { SandboxComponents } from '@payment-service/openapi';
import type { IdempotencyRecord, StoredPayment } from '../records.js';
import type {
  EndpointRecord,
  QueuedDelivery,
  StoredEvent,
  WebhookDelivery,
} from '../webhook-records.js';
import type { Account } from './account.js';

type Faults = SandboxComponents['schemas']['Faults'];

/**
 * Told of each change of a memory store, in the order the store makes them and before the call
 * that made them returns (a durable store wraps the memory store and writes them: see
 * data-dir/journaled-store.ts). Nothing is told of an account once it is closed.
 *
 * @example
 * const store = new MemoryStore(limits, { changes: { paymentStored: (account, stored) => save(stored), … } });
 */
export interface MemoryChanges {
  /** A new empty account, held under `key` (an API key, or the name a wrapper held it under). */
  accountOpened(account: Account, key: string): void;
  /** A payment as it is now: made, changed, or settled. */
  paymentStored(account: Account, stored: StoredPayment): void;
  /** A payment forgotten to make room (the key's oldest). */
  paymentForgotten(account: Account, id: string): void;
  /** An idempotency record given its answer. */
  recordAnswered(account: Account, record: IdempotencyRecord): void;
  /** An idempotency record forgotten (expired, trimmed, or given up), answered or not. */
  recordForgotten(account: Account, record: IdempotencyRecord): void;
  faultsSet(account: Account, faults: Faults): void;
  offsetSet(account: Account, seconds: number): void;
  /** Everything of the key deleted (a reset, or an idle key forgotten to make room). */
  accountReset(account: Account): void;
  /** The account left the store (reset, forgotten, or dropped once empty): it is closed next. */
  accountDropped(account: Account): void;
  /** Where the key's webhook state tells its changes. */
  webhooksOf(account: Account): WebhookChanges;
}

/** Told of each change of one key's webhook state (see `MemoryChanges`). */
export interface WebhookChanges {
  /** An endpoint registered, or its new status. */
  endpointSaved(record: EndpointRecord): void;
  endpointDeleted(id: string): void;
  /** Told before the event is kept (it may be forgotten at once to stay in budget). */
  eventRemembered(event: StoredEvent): void;
  attemptQueued(delivery: QueuedDelivery): void;
  /** An attempt taken off the queue was made (sent or dropped): not to be made again. */
  attemptFinished(delivery: QueuedDelivery): void;
  /** Told before the entry is kept (it may be forgotten at once to stay in budget). */
  deliveryLogged(entry: WebhookDelivery): void;
}
