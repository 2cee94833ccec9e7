// What every facet of one key's account service shares: the sandbox's state, the key, and how an operation reports its change.
import type { TokenTable } from '../domain/tokens.js';
import type { WebhookAddressPolicy } from '../domain/webhook-address.js';
import type { RandomSource } from '../shared/ids.js';
import type { Clock } from '../shared/time.js';
import type { AccountStore, Awaitable, SandboxStore } from '../store/store.js';
import type { EndpointRecord, StoredEvent } from '../store/webhook-state.js';

/** What every account service of one server shares: the store, tokens, clock and settings. */
export interface SandboxState {
  /** Every key's data: the service reaches state only through this seam. */
  store: SandboxStore;
  tokens: TokenTable;
  clock: Clock;
  settlementDelayMs: number;
  idempotencyTtlMs: number;
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

/**
 * One key in one sandbox: finds or opens the key's account in the store and reads the key's
 * clock. Shared by the facets of the key's account service.
 *
 * @example
 * const scope = new KeyScope(sandbox, 'sk_test_12345678');
 * scope.now(await scope.find()); // the key's clock, ms epoch
 */
export class KeyScope {
  /** The account as this request read it (only when `perRequest`): the next steps reuse it. */
  private held: AccountStore | undefined;

  constructor(
    readonly sandbox: SandboxState,
    readonly apiKey: string,
    /**
     * Serves one request only: the account is read from the store once and reused by the
     * request's later steps (faults, settlements, the handler, the inspector, the release), as
     * long as it is not closed. For a networked store, where each read is a round trip.
     */
    private readonly perRequest = false,
  ) {}

  /** The key's account, if it holds anything (reads never create one). */
  find(): Awaitable<AccountStore | undefined> {
    if (!this.perRequest) return this.sandbox.store.find(this.apiKey);
    if (this.held !== undefined && !this.held.closed) return this.held;
    return this.keep(this.sandbox.store.find(this.apiKey));
  }

  /** The key's account, created on first write. */
  open(): Awaitable<AccountStore> {
    if (!this.perRequest) return this.sandbox.store.open(this.apiKey);
    if (this.held !== undefined && !this.held.closed) return this.held;
    return this.keep(this.sandbox.store.open(this.apiKey)) as Awaitable<AccountStore>;
  }

  private keep<T extends AccountStore | undefined>(read: Awaitable<T>): Awaitable<T> {
    if (read instanceof Promise) {
      return read.then((account) => {
        this.held = account;
        return account;
      });
    }
    this.held = read;
    return read;
  }

  /** The key's clock now (ms epoch) with its account as read: the server's time plus the offset. */
  now(account: AccountStore | undefined): number {
    const serverNow = this.sandbox.clock.now();
    return account === undefined ? serverNow : account.now(serverNow);
  }

  /** Forgets the account when it holds nothing any more. */
  async release(): Promise<void> {
    const account = await this.find();
    if (account !== undefined) await this.sandbox.store.release(account);
  }
}
