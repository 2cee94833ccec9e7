// What every account service of one server shares (the sandbox's state), and how an operation reports its change.
import type { TokenTable } from '../domain/tokens.js';
import type { WebhookAddressPolicy } from '../domain/webhook-address.js';
import type { RandomSource } from '../shared/ids.js';
import type { Clock } from '../shared/time.js';
import type { AccountStore, SandboxStore } from '../store/store.js';
import type { EndpointRecord, StoredEvent } from '../store/webhook-records.js';
import type { PendingWrites } from './pending-writes.js';

/** What every account service of one server shares: the store, tokens, clock and settings. */
export interface SandboxState {
  /** Every key's data: the service reaches state only through this seam. */
  store: SandboxStore;
  tokens: TokenTable;
  clock: Clock;
  settlementDelayMs: number;
  idempotencyTtlMs: number;
  /** The most payments a key holds (so the most new ids a create can find held). */
  maxPaymentsPerKey: number;
  /** The server-wide endpoint (the CLI's `--webhook-url`), if any. */
  defaultEndpoint: EndpointRecord | undefined;
  /**
   * Requests each key has waiting on its `latency_ms` fault in this process (by key, not by
   * account: a reset does not end the waits, so it must not free their slots either). Not store
   * state: it counts this process's own open requests, and ends with them.
   */
  heldRequests: Map<string, number>;
  /** The addresses the key's webhook endpoints may reach. */
  webhookPolicy: WebhookAddressPolicy;
  /** Where ids, signing secrets and random choices come from (seeded in a test sandbox). */
  random: RandomSource;
  /**
   * The inspector's request records sent and not stored yet (a networked store writes them
   * after the answer, without holding it): the inspector waits for them before it reads.
   */
  pendingRecords: PendingWrites;
}

/** An event to deliver: made by an operation, handed to the webhook dispatcher. */
export interface EventDelivery {
  account: AccountStore;
  event: StoredEvent;
  /** When it is due, on the key's sandbox clock. */
  dueAt: number;
}

/** What an operation did: its result, and the events it caused (in order). */
export interface Change<Result> {
  result: Result;
  events: EventDelivery[];
}

/** The events of an operation that caused none (shared: never changed). */
export const noEvents: EventDelivery[] = [];
