// One sandbox account: payments in creation order, settlements, idempotency, faults, clock offset.
import type { components, SandboxComponents } from '@payment-service/openapi';
import { takeDrop, takeFailure } from '../../shared/faults.js';
import type { ProblemInit } from '../../shared/problems.js';
import { ACCOUNT_BYTES, paymentBytes } from '../byte-sizes.js';
import {
  type IdempotencyRecord,
  type PaymentRecord,
  StoredPayment,
  type StoredResponse,
  type TimelineStep,
} from '../records.js';
import type { RecordedEntry } from '../request-records.js';
import type { IdempotencyCompletion, PaymentPage } from '../store.js';
import type { MemoryChanges } from './changes.js';
import { MinHeap } from './min-heap.js';
import { RequestLog } from './request-log.js';
import { AccountWebhooks } from './webhook-state.js';

type Payment = components['schemas']['Payment'];

type Faults = SandboxComponents['schemas']['Faults'];

/** How an account reports the bytes it holds to the store, and its own budget. */
export interface AccountMeter {
  keyBudgetBytes: number;
  onBytes(delta: number): void;
  /** Whether the store may hold `delta` more bytes without passing its global budget. */
  canHold(delta: number): boolean;
}

/**
 * What an account leaves to the memory store that holds it: the calls that also change the
 * store's totals, record orders and budgets (see `MemoryStore`).
 */
export interface AccountOwner {
  createPayment(
    account: Account,
    record: PaymentRecord,
    idempotency: IdempotencyCompletion | undefined,
  ): StoredPayment | undefined;
  addIdempotencyRecord(account: Account, record: IdempotencyRecord): void;
  completeIdempotencyRecord(
    account: Account,
    record: IdempotencyRecord,
    response: StoredResponse,
  ): void;
  deleteIdempotencyRecord(account: Account, record: IdempotencyRecord): void;
  expireIdempotencyRecords(account: Account, accountNow: number): void;
}

const unmetered: AccountMeter = {
  keyBudgetBytes: Number.POSITIVE_INFINITY,
  onBytes() {},
  canHold: () => true,
};

/**
 * The data of one sandbox key in the memory store, answered at once (the seam's `AccountStore`
 * is its handle: memory-seam.ts). Payments are kept oldest first,
 * so the oldest is evicted first and a page is a slice read backwards.
 *
 * @example
 * const account = store.open('sk_test_12345678');
 * account.createPayment({ id: 'pay_1', json, token: 'tok_test_success', settlesAt: undefined, timeline });
 * account.listPayments(10)?.data[0]?.id; // 'pay_1'
 */
export class Account {
  readonly payments = new Map<string, StoredPayment>();
  readonly idempotencyRecords = new Map<string, IdempotencyRecord>();
  faults: Faults = {};
  offsetSeconds = 0;
  /** Set once the account is reset or dropped; late writers must reopen the account. */
  closed = false;
  /** Webhook endpoints, recent events, queued deliveries and the delivery log, once used. */
  webhooks: AccountWebhooks | undefined = undefined;
  /** The key's recent requests, for the console's inspector, once one is recorded. */
  requests: RequestLog | undefined = undefined;
  /** Bytes held (estimated, see byte-sizes.ts): the account itself, payments, records, webhooks. */
  bytes = 0;
  /** When a request of this key last used the account, on the server's clock (ms epoch). */
  lastUsedAt = 0;
  /** Payments oldest first; the slots before `head` are emptied as the oldest are removed. */
  private ordered: (StoredPayment | undefined)[] = [];
  private head = 0;
  private nextSequence = 0;
  private readonly settlements = new MinHeap<StoredPayment>(
    (a, b) => (a.settlesAt ?? 0) - (b.settlesAt ?? 0) || a.sequence - b.sequence,
  );

  constructor(
    private readonly meter: AccountMeter = unmetered,
    /** Told of the account's changes, for a store that keeps them (absent: nobody is). */
    private readonly watcher: MemoryChanges | undefined = undefined,
    /** The memory store holding the account (absent: an account on its own, for unit tests). */
    private readonly owner: AccountOwner | undefined = undefined,
  ) {
    this.addBytes(ACCOUNT_BYTES);
  }

  /** The store that holds the account, for the calls that change its totals too. */
  private get store(): AccountOwner {
    if (this.owner === undefined) throw new Error('this account is not held by a MemoryStore');
    return this.owner;
  }

  payment(id: string): StoredPayment | undefined {
    return this.payments.get(id);
  }

  /** Stores a new payment (see `MemoryStore.createPayment`): undefined when its id is held. */
  createPayment(
    record: PaymentRecord,
    idempotency?: IdempotencyCompletion,
  ): StoredPayment | undefined {
    return this.store.createPayment(this, record, idempotency);
  }

  transitionPayment(
    id: string,
    expectedJson: string,
    payment: Payment,
    step: TimelineStep,
    idempotency?: IdempotencyCompletion,
  ): boolean {
    const stored = this.payments.get(id);
    // The same string in the common case: a pointer comparison.
    if (stored === undefined || stored.json !== expectedJson) return false;
    this.updatePayment(stored, payment, step);
    if (idempotency !== undefined) {
      this.store.completeIdempotencyRecord(this, idempotency.record, idempotency.response);
    }
    return true;
  }

  idempotencyRecord(key: string): IdempotencyRecord | undefined {
    return this.idempotencyRecords.get(key);
  }

  claimIdempotencyKey(
    record: IdempotencyRecord,
    accountNow: number,
  ): IdempotencyRecord | undefined {
    const store = this.store;
    store.expireIdempotencyRecords(this, accountNow);
    const existing = this.idempotencyRecords.get(record.key);
    if (existing !== undefined) return existing;
    store.addIdempotencyRecord(this, record);
    return undefined;
  }

  completeIdempotencyRecord(record: IdempotencyRecord, response: StoredResponse): void {
    this.store.completeIdempotencyRecord(this, record, response);
  }

  forgetIdempotencyRecord(record: IdempotencyRecord): void {
    this.store.deleteIdempotencyRecord(this, record);
  }

  expireIdempotencyRecords(accountNow: number): void {
    this.store.expireIdempotencyRecords(this, accountNow);
  }

  listIdempotencyRecords(): Iterable<IdempotencyRecord> {
    return this.idempotencyRecords.values();
  }

  recordRequest(entry: RecordedEntry): undefined {
    this.requestLog().record(entry);
    return undefined;
  }

  recentRequests(): RecordedEntry[] {
    return this.requests?.newestFirst() ?? [];
  }

  /** Who is told of the account's changes: nobody once it is closed. */
  get changes(): MemoryChanges | undefined {
    return this.closed ? undefined : this.watcher;
  }

  /** Replaces the key's faults. */
  setFaults(faults: Faults): void {
    this.faults = faults;
    this.changes?.faultsSet(this, faults);
  }

  /** Sets how far the key's clock runs ahead of the server's, in seconds. */
  setOffset(seconds: number): void {
    this.offsetSeconds = seconds;
    this.changes?.offsetSet(this, seconds);
  }

  /** Adds `seconds` to the offset unless the sum passes `maxSeconds`; answers the sum. */
  advanceOffset(seconds: number, maxSeconds: number): number {
    const offset = this.offsetSeconds + seconds;
    if (offset <= maxSeconds) this.setOffset(offset);
    return offset;
  }

  /** Consumes one armed `fail_next`: the problem to answer with, if any. */
  consumeFailure(): ProblemInit | undefined {
    const failure = takeFailure(this.faults);
    if (failure !== undefined) this.changes?.faultsSet(this, this.faults);
    return failure;
  }

  /** Consumes one armed `drop_after_commit`: whether this answer must be dropped. */
  consumeDrop(): boolean {
    const drop = takeDrop(this.faults);
    if (drop) this.changes?.faultsSet(this, this.faults);
    return drop;
  }

  /** Counts bytes the account now holds (negative: freed), for its budget and the store's. */
  addBytes(delta: number): void {
    this.bytes += delta;
    this.meter.onBytes(delta);
  }

  /** Whether the account holds more than its key's budget. */
  overBudget(): boolean {
    return this.bytes > this.meter.keyBudgetBytes;
  }

  /** The key's webhook state, created on first use with half the key's budget. */
  webhookState(): AccountWebhooks {
    this.webhooks ??= new AccountWebhooks(
      {
        maxBytes: this.meter.keyBudgetBytes / 2,
        onBytes: (delta) => this.addBytes(delta),
      },
      this.watcher?.webhooksOf(this),
    );
    return this.webhooks;
  }

  /** The key's request log, created on first use; its bytes count toward the key's budget. */
  requestLog(): RequestLog {
    this.requests ??= new RequestLog((delta) => this.addBytes(delta));
    return this.requests;
  }

  /**
   * Stores a payment's new state (its JSON) and the change that made it, at the end of its
   * timeline; past `MAX_TIMELINE_STEPS` the oldest step after the creation goes. Cannot throw.
   */
  updatePayment(stored: StoredPayment, payment: Payment, step: TimelineStep): void {
    const held = this.payments.get(stored.id) === stored;
    const before = held ? paymentBytes(stored) : 0;
    stored.json = JSON.stringify(payment);
    stored.addChange(step);
    if (!held) return;
    this.addBytes(paymentBytes(stored) - before);
    this.changes?.paymentStored(this, stored);
  }

  /** The account's clock: the server's time plus the offset its clock was advanced by. */
  now(serverNow: number): number {
    return serverNow + this.offsetSeconds * 1000;
  }

  get paymentCount(): number {
    return this.payments.size;
  }

  /**
   * Adds a payment as the newest; a PENDING one is queued to settle at its `settlesAt`. `token`:
   * the record's token as kept (the store interns it), without a copy of the record.
   */
  insertPayment(record: PaymentRecord, token: string = record.token): StoredPayment {
    const { id, json, settlesAt, timeline } = record;
    const [at, status, amount, changes] = timeline;
    const created = { at, status, amount };
    const sequence = this.nextSequence++;
    const stored = new StoredPayment(
      id,
      json,
      sequence,
      token,
      settlesAt,
      created,
      changes ?? undefined,
    );
    if (settlesAt !== undefined) this.settlements.push(stored);
    this.payments.set(id, stored);
    this.ordered.push(stored);
    return stored;
  }

  /** Removes and returns the oldest payment. */
  removeOldestPayment(): StoredPayment | undefined {
    const oldest = this.ordered[this.head];
    if (oldest === undefined) return undefined;
    this.ordered[this.head] = undefined;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.ordered.length) {
      this.ordered = this.ordered.slice(this.head);
      this.head = 0;
    }
    this.payments.delete(oldest.id);
    return oldest;
  }

  /** Removes one payment by id; undefined when not held. */
  removePayment(id: string): StoredPayment | undefined {
    const stored = this.payments.get(id);
    if (stored === undefined) return undefined;
    if (this.ordered[this.head] === stored) return this.removeOldestPayment();
    const index = this.indexOf(stored);
    if (index >= 0) this.ordered[index] = undefined;
    this.payments.delete(id);
    return stored;
  }

  /** When the next PENDING payment settles, on the account's clock, if any is queued. */
  nextSettlementAt(): number | undefined {
    return this.settlements.peek()?.settlesAt;
  }

  /**
   * Takes every PENDING payment due to settle at or before `accountNow` off the settlement queue,
   * earliest first (payments evicted meanwhile are skipped). The caller settles them.
   */
  takeDueSettlements(accountNow: number): StoredPayment[] {
    const due: StoredPayment[] = [];
    for (;;) {
      const next = this.settlements.peek();
      if (next === undefined || (next.settlesAt ?? 0) > accountNow) return due;
      this.settlements.pop();
      if (this.payments.get(next.id) === next) due.push(next);
    }
  }

  /**
   * A page of payments, newest first, starting after the payment `startingAfter` when given.
   * Returns undefined when `startingAfter` is not one of this account's payments.
   */
  listPayments(limit: number, startingAfter?: string): PaymentPage | undefined {
    let index = this.ordered.length - 1;
    if (startingAfter !== undefined) {
      const cursor = this.payments.get(startingAfter);
      if (cursor === undefined) return undefined;
      index = this.indexOf(cursor) - 1;
    }
    const data: StoredPayment[] = [];
    while (index >= this.head && data.length < limit) {
      const stored = this.ordered[index];
      if (stored !== undefined) data.push(stored);
      index--;
    }
    return { data, has_more: index >= this.head };
  }

  /** Whether the account holds nothing worth keeping. */
  isEmpty(): boolean {
    return (
      this.payments.size === 0 &&
      this.idempotencyRecords.size === 0 &&
      this.offsetSeconds === 0 &&
      Object.keys(this.faults).length === 0 &&
      this.webhooks === undefined &&
      this.requests === undefined
    );
  }

  /** Every stored payment, oldest first. */
  *storedPayments(): IterableIterator<StoredPayment> {
    for (let index = this.head; index < this.ordered.length; index++) {
      const stored = this.ordered[index];
      if (stored !== undefined) yield stored;
    }
  }

  private indexOf(stored: StoredPayment): number {
    let low = this.head;
    let high = this.ordered.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const entry = this.ordered[middle];
      if (entry === undefined) return -1;
      const sequence = entry.sequence;
      if (sequence === stored.sequence) return middle;
      if (sequence < stored.sequence) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}
