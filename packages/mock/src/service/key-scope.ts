// What every facet of one key's account service shares: the sandbox's state, the key, and how an operation reports its change.
import type { TokenTable } from '../domain/tokens.js';
import type { WebhookAddressPolicy } from '../domain/webhook-address.js';
import type { RandomSource } from '../shared/ids.js';
import type { Clock } from '../shared/time.js';
import type { IdempotencyRecord, StoredPayment } from '../store/records.js';
import type { AccountStore, Awaitable, OpenClaim, SandboxStore } from '../store/store.js';
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

/** What the store read for a request in its first round trip, for the request's later steps. */
interface ReadAhead {
  /** The account it read (the steps use what was read only while it is still the one held). */
  account: AccountStore | undefined;
  /** What was done with the request's Idempotency-Key (POST), until the key step takes it. */
  claim: OpenClaim | undefined;
  /** Whether the sandbox has room (POST), asked in the same round trip, until the check takes it. */
  admitted: Awaitable<boolean> | undefined;
  /** The payment of the path's `{id}`, as read (undefined: the key holds no such payment). */
  paymentId: string | undefined;
  payment: StoredPayment | undefined;
}

/** What a request asks the store ahead, in its first round trip. */
export interface AheadAsk {
  /** A POST: open the account (created on first write) and ask whether the sandbox has room. */
  post: boolean;
  /** The in-flight record of the request's Idempotency-Key on the key's clock, to claim. */
  makeRecord: ((accountNow: number) => IdempotencyRecord) | undefined;
  /** The payment of the path's `{id}`, to read. */
  paymentId: string | undefined;
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
  /** What the store read ahead for this request (`readAhead`), while it is still current. */
  private ahead: ReadAhead | undefined;
  /**
   * Whether what was read with the account still stands for this request (not after it waited
   * on its latency fault): when its next payment settles, the payment read ahead.
   */
  private fresh = true;

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

  /**
   * Whether the store answers a request's first steps in one round trip (a networked store's
   * fast paths, `SandboxStore.openAhead`/`findWithPayment`): only for a per-request scope.
   */
  get readsAhead(): boolean {
    const { store } = this.sandbox;
    return this.perRequest && store.openAhead !== undefined && store.findWithPayment !== undefined;
  }

  /**
   * Asks the store in one round trip what the request's steps will ask (`readsAhead` only): a
   * POST opens the account, claims its Idempotency-Key (only when no fault is armed: the faults
   * answer first) and, in the same tick (one write), asks whether the sandbox has room; a read
   * finds the account; either reads the payment of the path's `{id}`. The later steps take what
   * was read instead of asking again.
   */
  async readAhead(ask: AheadAsk): Promise<void> {
    const { store, clock } = this.sandbox;
    if (ask.post) {
      if (store.openAhead === undefined) return;
      const opening = store.openAhead(this.apiKey, clock.now(), ask.makeRecord, ask.paymentId);
      const admitted = store.admit();
      // Awaited only if the request gets to its capacity check (not on a replay).
      if (admitted instanceof Promise) admitted.catch(() => {});
      const read = await opening;
      this.held = read.account;
      this.ahead = { ...read, admitted, paymentId: ask.paymentId };
      return;
    }
    if (store.findWithPayment === undefined || ask.paymentId === undefined) return;
    const read = await store.findWithPayment(this.apiKey, ask.paymentId);
    this.held = read.account;
    this.ahead = { ...read, claim: undefined, admitted: undefined, paymentId: ask.paymentId };
  }

  /** The Idempotency-Key claim read ahead, with the account that holds it (taken once). */
  takeClaim(): { claim: OpenClaim; account: AccountStore } | undefined {
    const ahead = this.ahead;
    const claim = ahead?.claim;
    if (ahead === undefined || claim === undefined || ahead.account === undefined) return undefined;
    ahead.claim = undefined;
    return { claim, account: ahead.account };
  }

  /** Whether the sandbox has room, as asked ahead (taken once). */
  takeAdmitted(): Awaitable<boolean> | undefined {
    const admitted = this.ahead?.admitted;
    if (this.ahead !== undefined) this.ahead.admitted = undefined;
    return admitted;
  }

  /**
   * The payment `id` of `account` as read ahead (`{ payment: undefined }`: not held), while
   * nothing of this request may have changed it since; taken once.
   */
  takePayment(
    id: string,
    account: AccountStore,
  ): { payment: StoredPayment | undefined } | undefined {
    const ahead = this.ahead;
    if (ahead === undefined || ahead.paymentId !== id || !this.fresh) return undefined;
    ahead.paymentId = undefined;
    if (ahead.account !== account || account.closed) return undefined;
    return { payment: ahead.payment };
  }

  /** Something of the request may have changed the payment read ahead (settlements): forget it. */
  dropPayment(): void {
    if (this.ahead !== undefined) this.ahead.paymentId = undefined;
  }

  /**
   * The request waited (its latency fault): what was read with the account no longer stands
   * (its next settlement, the payment read ahead).
   */
  waited(): void {
    this.fresh = false;
    this.dropPayment();
  }

  /**
   * Whether a payment of `account` may be due to settle at `accountNow`: false only when the
   * store read when its next one settles with the account for this request (and the request
   * did not wait since).
   */
  mayHaveDue(account: AccountStore, accountNow: number): boolean {
    if (!this.perRequest || !this.fresh) return true;
    return account.mayHaveDueSettlements?.(accountNow) ?? true;
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
