// The store seam: everything the service layer reads or changes of the sandbox's state, as one interface a store implements.
import type { components, SandboxComponents } from '@payment-service/openapi';
import type { ProblemInit } from '../shared/problems.js';
import type {
  IdempotencyRecord,
  PaymentRecord,
  StoredPayment,
  StoredResponse,
  TimelineStep,
} from './records.js';
import type { RecordedEntry } from './request-records.js';
import type {
  EndpointRecord,
  EndpointSaved,
  QueuedDelivery,
  StoredEvent,
  WebhookDelivery,
} from './webhook-records.js';

type Payment = components['schemas']['Payment'];

type Faults = SandboxComponents['schemas']['Faults'];

/*
 * THE SEAM
 *
 * The service layer (service/*) and webhook delivery (webhooks/*) reach the sandbox's state only
 * through `SandboxStore` (every key) and `AccountStore` (one key, with its `WebhookStore`). The
 * memory store (store/memory/: `MemorySeam` over a `MemoryStore`, whose accounts are `Account`s
 * handed out as `MemoryAccountHandle`s; the data directory wraps it) is one implementation, the
 * networked store (Valkey/Redis, store/redis/) another.
 *
 * Rules a store keeps:
 * - Anything that must be atomic is one call: `AccountStore.createPayment` (a payment with the
 *   answer its Idempotency-Key replays), `AccountStore.transitionPayment` (compare-and-set on
 *   the payment's state as it was read, with the answer its Idempotency-Key replays), `AccountStore.claimIdempotencyKey` (set-if-absent of an
 *   in-flight record), `AccountStore.takeDueSettlements` and `WebhookStore.claimDueAttempt`
 *   (each due item is handed to one caller only). A networked store makes each one script
 *   (Lua/function) or one MULTI; nothing in the service reads, decides and writes back.
 * - Budgets are the store's: a key over its byte budget loses its own oldest payments, records,
 *   events and log entries inside the call that added data; `SandboxStore.admit()` answers
 *   whether the whole sandbox has room (global byte budget and total caps) before new work.
 * - Objects a call returns are the caller's view of the state at that call: a networked store
 *   builds them from what it read (a `StoredPayment` from its hash), the memory store returns
 *   its own records. The service never changes them except through a store call.
 * - A write never throws once it has changed something (the service builds everything that can
 *   fail first).
 *
 * NOT STORE STATE
 *
 * What only this process's open work holds stays out of the store: the requests each key has
 * waiting on its `latency_ms` fault (`SandboxState.heldRequests`), the dispatcher's attempts in
 * flight per key and the keys it watches for due work (keyed by the handles `find`/`open`
 * return: a networked store keeps one handle per key, or the dispatcher keys them by API key).
 *
 * ONE CALLING CONVENTION: PROMISES
 *
 * The calls marked `@async` below answer with a Promise on every store: the memory store's
 * handles (memory/memory-seam.ts) with one of what they did at once, a networked store once it
 * has the reply. Callers await each one, and never read, decide and write back across an await:
 * a reset or another request may run at any await. `faults`, `offsetSeconds` and `closed` stay
 * properties, read with the account, so `now(serverNow)` is synchronous. The in-flight Idempotency-Key
 * record is what makes a concurrent request with the same key a 409: the claim is the atomic
 * set-if-absent `claimIdempotencyKey` (or a session's `claim`).
 *
 * ONE SESSION PER REQUEST
 *
 * The service reaches a key's state through one `StoreSession` per request
 * (`SandboxStore.session(apiKey, ask)`, one await for every store): the session holds what the
 * store read for the request at its start (the account, the Idempotency-Key's claim, the payment
 * of the path, when the next payment settles), asked in one go, so that the request's later
 * steps read it instead of asking again. The memory store answers it at once; a networked store
 * in one round trip (a write also asks whether the sandbox has room in the same tick). What a
 * session read is as of its start: a request that waited (its latency fault) drops it, and its
 * later steps ask the account. Each store builds its session its own way and hands out a
 * `ReadSession` (read-session.ts) over what it read.
 *
 * A request's steps after its session run as the store's work (`withSession`): the store decides
 * when, and answers what the work answers: the memory store at once, in the caller's tick (a
 * retrieve it serves is answered without a promise), a networked store after its round trip.
 * Nothing asks which: the steps' answer is read in one place (http/steps/state.ts, `afterSteps`).
 */

/** Seconds a client is told to wait (`Retry-After`) while the store is unreachable. */
export const STORE_RETRY_AFTER_SECONDS = 1;

/**
 * The store (a networked one: Valkey/Redis) could not be reached, or did not answer in time: nothing the call
 * would have changed is half-written (each change is one script). The service answers
 * `503 store_unavailable` with `Retry-After: retryAfterSeconds`.
 *
 * @example
 * if (error instanceof StoreUnavailableError) return problem(503, 'store_unavailable', error.retryAfterSeconds);
 */
export class StoreUnavailableError extends Error {
  override readonly name: string = 'StoreUnavailableError';
  readonly retryAfterSeconds = STORE_RETRY_AFTER_SECONDS;
}

/** Where a store hands a write it holds back instead of making it in the call (it never rejects). */
export interface HeldWrites {
  add(write: Promise<unknown>): void;
}

/** An idempotency record to complete together with the change it answers. */
export interface IdempotencyCompletion {
  /** The in-flight record taken by `claimIdempotencyKey`. */
  record: IdempotencyRecord;
  /** The answer it replays from now on. */
  response: StoredResponse;
}

/** What a session did with the Idempotency-Key it was asked to claim (`SessionAsk.claim`). */
export type OpenClaim =
  /** Nothing: claim it with `claimIdempotencyKey` (after answering any armed fault). */
  | { kind: 'skipped' }
  /** Claimed: this in-flight record is ours. */
  | { kind: 'claimed'; record: IdempotencyRecord }
  /** The key already had this record: replay it, or answer 409/422. */
  | { kind: 'held'; record: IdempotencyRecord };

/** What a request asks its session to read (and claim) when it opens, in one go. */
export interface SessionAsk {
  /**
   * A write: open the account (created on first write), and ask whether the sandbox has room
   * (`StoreSession.admit`) in the same go. Else the account is only found (never created).
   */
  write: boolean;
  /** The server's time the request started at (ms epoch): the claim's record is made on it. */
  serverNow: number;
  /**
   * A write's Idempotency-Key claim: the in-flight record built on the key's clock. Claimed only
   * when no fault of the key is armed (the faults answer first); else `skipped`, and the caller
   * claims with `AccountStore.claimIdempotencyKey` after answering them.
   */
  claim?: ((accountNow: number) => IdempotencyRecord) | undefined;
  /** The payment of the path's `{id}`, to read with the account. */
  paymentId?: string | undefined;
}

/**
 * One request's door to one key's state: what the store read for it when it opened
 * (`SandboxStore.session`), and the calls whose answer depends on that read. Every other call
 * goes to `account` (awaited, whatever the store). What it read is as of its start: a request
 * that waited takes a new session.
 *
 * @example
 * const session = await store.session(apiKey, { write: false, serverNow, paymentId: 'pay_1' });
 * session.paymentAsRead('pay_1')?.payment; // read with the account: no other call
 */
export interface StoreSession {
  /** The key's account as read: undefined when it holds nothing and the session only found it. */
  readonly account: AccountStore | undefined;
  /** What was done with the Idempotency-Key asked for (`skipped` when none was). */
  readonly claim: OpenClaim;
  /**
   * The payment `id` as read with the account (`{ payment: undefined }`: the key holds none),
   * while nothing of this session may have changed it (`takeDueSettlements` drops it);
   * undefined when it was not read: read it from `account`.
   */
  paymentAsRead(id: string): { payment: StoredPayment | undefined } | undefined;
  /**
   * Whether a payment of the account may be due to settle at `accountNow`, as the account was
   * read: false lets a request skip `takeDueSettlements`.
   */
  mayHaveDue(accountNow: number): boolean;
  /** `AccountStore.takeDueSettlements` of the account (the payment read ahead is read again). */
  takeDueSettlements(accountNow: number): Promise<StoredPayment[]>;
  /** Whether the sandbox has room for new work (a write's session asked it when it opened). */
  admit(): Promise<boolean>;
}

/** A page of an account's payments, newest first. */
export interface PaymentPage {
  data: StoredPayment[];
  has_more: boolean;
}

/**
 * Every key's data. Keys are independent tenants: no key's traffic removes another key's data.
 *
 * @example
 * const account = await store.open('sk_test_12345678');
 * await account.createPayment(record);
 */
export interface SandboxStore {
  /** The key's data, if it holds any; reads never create it. @async */
  find(apiKey: string): Promise<AccountStore | undefined>;
  /** The key's data, created empty on first write. @async */
  open(apiKey: string): Promise<AccountStore>;
  /**
   * Whether the sandbox has room for new work (global byte budget and total caps), after
   * forgetting idle keys if need be. @async
   */
  admit(): Promise<boolean>;
  /** Deletes everything of the key; returns how many payments it held. @async */
  reset(apiKey: string): Promise<number>;
  /**
   * Forgets the key's data when it holds nothing any more: true when it was forgotten. The caller
   * then writes no more through `account` (a refused request's record would bring it back): it
   * finds or opens the key again, as after a reset. @async
   */
  release(account: AccountStore): Promise<boolean>;
  /**
   * Drops what expired on the server's clock (idempotency records), at the start of a request.
   * A networked store expires keys itself (TTL) and makes this a no-op.
   */
  sweep(serverNow: number): void;

  /**
   * Opens one request's session on the key: reads (and, for a write, opens and claims) what
   * `ask` names, in one go: at once in memory, one round trip on a networked store.
   */
  session(apiKey: string, ask: SessionAsk): Promise<StoreSession>;
  /**
   * Runs `work` on one request's session of the key (what `session` reads, in one go) and
   * answers what `work` answers: the store decides when `work` runs. The memory store runs it at
   * once, in the caller's tick, and answers its result as it is; a networked store runs it once
   * its round trip is back and answers a promise. A throw of `work` (or of the read) is the
   * caller's, as a throw or a rejection.
   */
  withSession<Result>(
    apiKey: string,
    ask: SessionAsk,
    work: (session: StoreSession) => Result | Promise<Result>,
  ): Result | Promise<Result>;
  /**
   * Sends now the writes the store holds back to share a later round trip (the inspector's
   * request records): before a read that must see them.
   */
  flush?(): void;
  /**
   * Whether a networked store serves now: undefined when it does, else why not, in words that
   * show nothing secret (no address, no key). Asked by `GET /_sandbox/health`.
   */
  health?(): Promise<string | undefined>;
}

/**
 * One key's data: payments, idempotency records, faults, clock offset, webhooks, the request log.
 * Times are on the key's clock (ms epoch) unless named `server…`.
 *
 * @example
 * const account = await store.open(apiKey);
 * const claimed = await account.claimIdempotencyKey(record, accountNow); // undefined: it is ours
 * await account.createPayment(paymentRecord, { record, response });
 */
export interface AccountStore {
  /** Whether the key was reset or forgotten since this handle was taken: reopen it to write. */
  readonly closed: boolean;

  // The clock.
  /** How far the key's clock runs ahead of the server's, in seconds. */
  readonly offsetSeconds: number;
  /** The key's clock: the server's time plus the offset. */
  now(serverNow: number): number;
  /** Sets the offset. @async */
  setOffset(seconds: number): Promise<void>;
  /**
   * Adds `seconds` to the offset in one step (advances at once all count), unless the sum would
   * pass `maxSeconds`: then nothing changes. Answers the sum either way. @async
   */
  advanceOffset(seconds: number, maxSeconds: number): Promise<number>;

  // Faults.
  /** The armed faults, as stored. */
  readonly faults: Faults;
  /** Replaces the faults. @async */
  setFaults(faults: Faults): Promise<void>;
  /** Consumes one armed `fail_next` atomically: the problem to answer with, if any. @async */
  consumeFailure(): Promise<ProblemInit | undefined>;
  /** Consumes one armed `drop_after_commit` atomically. @async */
  consumeDrop(): Promise<boolean>;

  // Payments.
  /** One payment by id. @async */
  payment(id: string): Promise<StoredPayment | undefined>;
  /** A page newest first, after `startingAfter`; undefined when that id is not held. @async */
  listPayments(limit: number, startingAfter?: string): Promise<PaymentPage | undefined>;
  /** Every payment, oldest first (snapshots, the inspector). @async */
  storedPayments(): Promise<Iterable<StoredPayment>>;
  /**
   * Stores a new payment as the newest (evicting the key's oldest past its cap or budget) and,
   * when `idempotency` is given, completes that record with its answer (setting its `response`,
   * so the caller does not complete it again): both or neither. Undefined, changing nothing, when
   * the key already holds a payment with this id (checked in the same step): draw another id. @async
   */
  createPayment(
    record: PaymentRecord,
    idempotency?: IdempotencyCompletion,
  ): Promise<StoredPayment | undefined>;
  /**
   * Compare-and-set: stores `payment` as the payment's new state and appends `step` to its
   * timeline only if the payment is still as it was read (`expectedJson`, its JSON then: status
   * and amounts), and, when `idempotency` is given, completes that record with its answer as
   * `createPayment` does: both or neither. False, changing nothing, when another change came
   * first: read it again. @async
   */
  transitionPayment(
    id: string,
    expectedJson: string,
    payment: Payment,
    step: TimelineStep,
    idempotency?: IdempotencyCompletion,
  ): Promise<boolean>;
  /**
   * Takes every PENDING payment due to settle at `accountNow` off the settlement schedule, each
   * given to one caller only; the caller settles them with `transitionPayment`. @async
   */
  takeDueSettlements(accountNow: number): Promise<StoredPayment[]>;
  /** When the next PENDING payment settles, if any. @async */
  nextSettlementAt(): Promise<number | undefined>;

  // Idempotency records.
  /** The record of an Idempotency-Key, if held and not expired. @async */
  idempotencyRecord(key: string): Promise<IdempotencyRecord | undefined>;
  /**
   * Set-if-absent: expires the key's records due at `accountNow`, then stores `record` (in
   * flight: no response yet) unless the key already has one, which it returns. @async
   */
  claimIdempotencyKey(
    record: IdempotencyRecord,
    accountNow: number,
  ): Promise<IdempotencyRecord | undefined>;
  /** Stores the first answer of a record taken by `claimIdempotencyKey`. @async */
  completeIdempotencyRecord(record: IdempotencyRecord, response: StoredResponse): Promise<void>;
  /** Forgets a record (an abandoned request frees its key). @async */
  forgetIdempotencyRecord(record: IdempotencyRecord): Promise<void>;
  /** Drops the records expired at `accountNow` (after the key's clock moved). @async */
  expireIdempotencyRecords(accountNow: number): Promise<void>;
  /** Every record held, oldest first (snapshots). @async */
  listIdempotencyRecords(): Promise<Iterable<IdempotencyRecord>>;

  // Webhooks.
  /** The key's webhook state, if it ever had any. */
  readonly webhooks: WebhookStore | undefined;
  /** The key's webhook state, created on first use. */
  webhookState(): WebhookStore;

  // The inspector's request log.
  /**
   * Records a request (bounded in count and bytes; cannot throw), the same way on every store: the
   * memory store stores it at once; a networked store may hold the write back to share its next
   * call's round trip, and hands it to `held` (nobody waits for it before answering; a reader of
   * the log waits for `held`). The caller never asks which it was.
   */
  recordRequest(entry: RecordedEntry, held: HeldWrites): void;
  /** The recorded requests, newest first. @async */
  recentRequests(): Promise<RecordedEntry[]>;
}

/**
 * One key's webhooks: endpoints with their signing keys, events kept for redelivery, the
 * delivery log, and the attempts scheduled on the key's clock.
 *
 * @example
 * const attempt = await account.webhookState().claimDueAttempt(accountNow);
 * if (attempt !== undefined) await send(attempt).then(() => state.finishAttempt(attempt));
 */
export interface WebhookStore {
  endpointCount(): number;
  /** One endpoint with its signing key. @async */
  endpointById(id: string): Promise<EndpointRecord | undefined>;
  /** The endpoints, oldest first. @async */
  listEndpoints(): Promise<EndpointRecord[]>;
  /**
   * Registers a new endpoint, checking in the same step that the key has fewer than
   * `MAX_ENDPOINTS_PER_KEY` (registrations at once never pass the cap) and no endpoint with this
   * id: otherwise it stores nothing and answers why (`'at the cap'`; `'id held'`: draw another
   * id). @async
   */
  saveEndpoint(record: EndpointRecord): Promise<EndpointSaved>;
  /** Deletes an endpoint; false when there is none with this id. @async */
  deleteEndpoint(id: string): Promise<boolean>;
  /** Stops sending to an endpoint (it answered 410 Gone). @async */
  disableEndpoint(record: EndpointRecord): Promise<void>;
  /** One event kept for redelivery. @async */
  eventById(id: string): Promise<StoredEvent | undefined>;
  /** The events kept, oldest first. @async */
  listEvents(): Promise<StoredEvent[]>;
  /**
   * Keeps a new event for redelivery (the oldest go past the cap or budget). False, keeping
   * nothing, when the key already keeps an event with this id (checked in the same step): draw
   * another id. @async
   */
  rememberEvent(event: StoredEvent): Promise<boolean>;
  /** The delivery log, oldest first. @async */
  deliveryLog(): Promise<readonly WebhookDelivery[]>;
  /** Logs one attempt (the oldest entries go past the cap or budget). @async */
  record(entry: WebhookDelivery): Promise<void>;
  /** Schedules an attempt; false, scheduling nothing, when the key has too many waiting. @async */
  enqueue(delivery: Omit<QueuedDelivery, 'sequence'>): Promise<boolean>;
  /** When the earliest scheduled attempt is due, if any. @async */
  nextAttemptAt(): Promise<number | undefined>;
  /**
   * Takes the earliest attempt due at `accountNow` off the schedule: each attempt is claimed by
   * one caller only (a networked store also leases it, so that another instance takes it over
   * if the claimer dies before `finishAttempt`). @async
   */
  claimDueAttempt(
    accountNow: number,
    /**
     * None is claimed while the key has this many attempts claimed and not finished, by any
     * instance (a networked store counts the fleet's; in one process the caller's count is it).
     */
    maxLeased?: number,
  ): Promise<QueuedDelivery | undefined>;
  /**
   * Marks a claimed attempt as made (sent, or dropped), so no restart sends it again, and
   * schedules `retry` in the same step when given: a process that dies after this call leaves
   * both done, before it neither. True when the retry was scheduled (false: none given, or the
   * key has too many waiting, as `enqueue`). @async
   */
  finishAttempt(
    delivery: QueuedDelivery,
    retry?: Omit<QueuedDelivery, 'sequence'>,
  ): Promise<boolean>;
  /** The attempts scheduled, in no particular order (snapshots). @async */
  queuedAttempts(): Promise<QueuedDelivery[]>;
}
