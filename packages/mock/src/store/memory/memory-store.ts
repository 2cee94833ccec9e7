// Every sandbox account by sk_test_ key, with the memory bounds: byte budgets per key and overall, caps and record expiry.
import type { components } from '@payment-service/openapi';
import { intern } from '../../shared/intern.js';
import { paymentBytes, recordBytes, responseBytes } from '../byte-sizes.js';
import type { StoreLimits } from '../limits.js';
import {
  type IdempotencyRecord,
  keptResponse,
  type PackedTimeline,
  type PaymentRecord,
  type StoredPayment,
  type StoredResponse,
} from '../records.js';
import type { IdempotencyCompletion } from '../store.js';
import { Account, type AccountOwner } from './account.js';
import type { MemoryChanges } from './changes.js';
import { FifoQueue } from './fifo-queue.js';
import type { MemoryCore } from './memory-seam.js';

type Payment = components['schemas']['Payment'];

/** Where the store logs what it forgets (idle keys evicted to make room), and who is told of its changes. */
export interface StoreContext {
  log?(line: string): void;
  /** Told of every change, for a store that keeps them (the data directory wraps this one). */
  changes?: MemoryChanges | undefined;
}

/**
 * All accounts, in this process's memory: the default `SandboxStore` (a data directory wraps it:
 * data-dir/journaled-store.ts). No key's traffic ever removes another key's data: a key over its byte budget
 * loses its own oldest payments and idempotency records; when the whole sandbox is over its
 * budget (or a total cap), idle accounts are forgotten (logged) and, failing that, `admit()`
 * refuses new work. Records are kept in global creation order for O(1) expiry sweeps.
 *
 * @example
 * const store = new MemoryStore({ maxPaymentsPerKey: 10, maxPaymentsTotal: 100, maxIdempotencyRecordsPerKey: 10, maxIdempotencyRecordsTotal: 100, maxAccounts: 10, memoryBudgetBytes: 1 << 20, keyMemoryBudgetBytes: 1 << 16, idleMs: 3_600_000 });
 * const account = store.open('sk_test_12345678');
 */
export class MemoryStore implements MemoryCore, AccountOwner {
  private readonly accounts = new Map<string, Account>();
  private mostRecentKey: string | undefined;
  private readonly apiKeys = new WeakMap<Account, string>();
  /** Payments held by every open account. */
  private paymentTotal = 0;
  /** Idempotency records held by every open account (each knows its `owner`). */
  private recordTotal = 0;
  /** Creation orders, oldest first (see FifoQueue for why not the Maps' own order). */
  private readonly recordOrder = new FifoQueue<IdempotencyRecord>();
  private readonly accountRecordOrders = new WeakMap<Account, FifoQueue<IdempotencyRecord>>();
  private readonly isLiveRecord = (record: IdempotencyRecord) => record.owner !== undefined;

  /** Bytes all open accounts hold (estimated, see byte-sizes.ts). */
  private totalBytes = 0;
  /**
   * The server's time as of the current request (`sweep()` sets it when a request starts), so
   * marking an account used never reads the clock in the middle of a change.
   */
  private serverNow = 0;

  constructor(
    private readonly limits: StoreLimits,
    private readonly context: StoreContext = {},
  ) {}

  /** The key's account if it has any data; reads never create one. Marks it recently used. */
  find(apiKey: string): Account | undefined {
    const account = this.accounts.get(apiKey);
    if (account !== undefined) account.lastUsedAt = this.serverNow;
    // Already the most recently used (the common case within one request): nothing to move.
    if (apiKey === this.mostRecentKey) return account;
    if (account !== undefined) {
      this.mostRecentKey = apiKey;
      // Re-insert so the Map's order is least recently used first.
      this.accounts.delete(apiKey);
      this.accounts.set(apiKey, account);
    }
    return account;
  }

  /**
   * The key's account, created empty on first use. Beyond `maxAccounts`, idle accounts (least
   * recently used first) are forgotten; an active one never is.
   */
  open(apiKey: string): Account {
    let account = this.find(apiKey);
    if (account === undefined) {
      account = this.newAccount(apiKey);
      this.mostRecentKey = apiKey;
      if (this.accounts.size > this.limits.maxAccounts)
        this.forgetIdleAccounts(() => this.accounts.size <= this.limits.maxAccounts);
    }
    return account;
  }

  /** A new empty account held under `mapKey`, counted in the store's bytes while open. */
  private newAccount(mapKey: string): Account {
    const { changes } = this.context;
    const holder: { account?: Account } = {};
    const account = new Account(
      {
        keyBudgetBytes: this.limits.keyMemoryBudgetBytes,
        // A forgotten account's late changes (a delivery finishing) no longer count.
        onBytes: (delta) => {
          if (holder.account?.closed !== true) this.totalBytes += delta;
        },
        canHold: (delta) => this.totalBytes + delta <= this.limits.memoryBudgetBytes,
      },
      changes,
      this,
    );
    holder.account = account;
    account.lastUsedAt = this.serverNow;
    this.accounts.set(mapKey, account);
    this.apiKeys.set(account, mapKey);
    changes?.accountOpened(account, mapKey);
    return account;
  }

  /**
   * Whether the sandbox can take new work: under its byte budget and total caps, after
   * forgetting idle accounts if need be. Reads and idempotent replays need no admission.
   */
  admit(): boolean {
    if (!this.full()) return true;
    this.forgetIdleAccounts(() => !this.full());
    return !this.full();
  }

  /**
   * Stores a new payment (`json`: its JSON when the caller has it already), evicting the oldest
   * payment of the key, then the oldest overall, while a cap is exceeded.
   */
  addPayment(
    account: Account,
    payment: Payment,
    token: string,
    createdAt: number,
    settlesAt?: number,
    json: string = JSON.stringify(payment),
  ): StoredPayment {
    const timeline: PackedTimeline = [createdAt, payment.status, payment.amount, null];
    return this.insertPayment(account, { id: payment.id, json, token, settlesAt, timeline });
  }

  /**
   * Stores a new payment and completes its idempotency record with the answer, in one step: a
   * durable store writes both or neither. Undefined, changing nothing, when the key already holds
   * a payment with this id (a seeded sandbox draws the ids its store holds again).
   */
  createPayment(
    account: Account,
    record: PaymentRecord,
    idempotency: IdempotencyCompletion | undefined,
  ): StoredPayment | undefined {
    if (account.payments.has(record.id)) return undefined;
    const stored = this.insertPayment(account, record);
    if (idempotency !== undefined)
      this.completeIdempotencyRecord(account, idempotency.record, idempotency.response);
    return stored;
  }

  /** Stores a payment given as a record (restored, or a fixture), as `addPayment` does. */
  insertPayment(account: Account, record: PaymentRecord): StoredPayment {
    const stored = account.insertPayment(record, intern(record.token));
    account.addBytes(paymentBytes(stored));
    this.paymentTotal++;
    while (
      account.paymentCount > this.limits.maxPaymentsPerKey ||
      (account.overBudget() && account.paymentCount > 1)
    ) {
      const oldest = account.removeOldestPayment();
      if (oldest === undefined) break;
      this.paymentTotal--;
      account.addBytes(-paymentBytes(oldest));
      if (oldest !== stored) account.changes?.paymentForgotten(account, oldest.id);
    }
    this.trimRecords(account, undefined);
    if (account.payments.get(stored.id) === stored) account.changes?.paymentStored(account, stored);
    return stored;
  }

  /** Forgets one payment of the key, as an eviction does (its bytes and the totals follow). */
  removePayment(account: Account, id: string): void {
    const removed = account.removePayment(id);
    if (removed === undefined) return;
    this.paymentTotal--;
    account.addBytes(-paymentBytes(removed));
  }

  /** Stores an idempotency record, evicting the oldest ones while a cap is exceeded. */
  addIdempotencyRecord(account: Account, record: IdempotencyRecord): void {
    record.method = intern(record.method);
    record.path = intern(record.path);
    account.idempotencyRecords.set(record.key, record);
    account.addBytes(recordBytes(record));
    record.owner = account;
    this.recordTotal++;
    this.recordOrder.push(record);
    this.recordOrderOf(account).push(record);
    this.trimRecords(account, record);
    this.recordOrder.compact(this.recordTotal, this.isLiveRecord);
  }

  /** Stores the first answer of a record; the key's oldest records go if it is over budget. */
  completeIdempotencyRecord(
    account: Account,
    record: IdempotencyRecord,
    response: StoredResponse,
  ): void {
    record.response = keptResponse(response);
    if (record.owner !== account) return; // forgotten meanwhile
    account.changes?.recordAnswered(account, record);
    account.addBytes(responseBytes(response));
    this.trimRecords(account, record);
  }

  /** Forgets one idempotency record. */
  deleteIdempotencyRecord(account: Account, record: IdempotencyRecord): void {
    if (account.idempotencyRecords.get(record.key) === record) {
      account.idempotencyRecords.delete(record.key);
    }
    if (record.owner !== account) return;
    record.owner = undefined;
    this.recordTotal--;
    account.changes?.recordForgotten(account, record);
    account.addBytes(
      -(recordBytes(record) + (record.response ? responseBytes(record.response) : 0)),
    );
  }

  /**
   * Forgets the key's own oldest idempotency records (never `keep`, the one being written) while
   * it holds more than its record cap or its byte budget.
   */
  private trimRecords(account: Account, keep: IdempotencyRecord | undefined): void {
    const accountOrder = this.recordOrderOf(account);
    while (
      account.idempotencyRecords.size > this.limits.maxIdempotencyRecordsPerKey ||
      account.overBudget()
    ) {
      const oldest = accountOrder.oldest(this.isLiveRecord);
      if (oldest === undefined || oldest === keep) break;
      this.deleteIdempotencyRecord(account, oldest);
    }
    accountOrder.compact(account.idempotencyRecords.size, this.isLiveRecord);
  }

  /**
   * Drops the account's idempotency records that expired on its clock. Records expire in the
   * order they were made, so this stops at the first live one: amortized O(1).
   */
  expireIdempotencyRecords(account: Account, accountNow: number): void {
    const accountOrder = this.accountRecordOrders.get(account);
    if (accountOrder === undefined) return;
    for (;;) {
      const record = accountOrder.oldest(this.isLiveRecord);
      if (record === undefined || record.expiresAt > accountNow) return;
      this.deleteIdempotencyRecord(account, record);
    }
  }

  /**
   * Drops idempotency records that expired on the server's clock in any account, even ones no
   * longer used, and accounts left empty by it. Amortized O(1) per call.
   */
  sweep(serverNow: number): void {
    this.serverNow = serverNow;
    for (;;) {
      const record = this.recordOrder.oldest(this.isLiveRecord);
      if (record === undefined || record.serverExpiresAt > serverNow) return;
      const account = record.owner as Account | undefined;
      if (account === undefined) return; // `oldest` returns only records it holds
      this.deleteIdempotencyRecord(account, record);
      this.dropIfEmpty(account);
    }
  }

  /** Deletes everything of the key: payments, idempotency records, faults, clock offset. */
  reset(apiKey: string): number {
    const account = this.accounts.get(apiKey);
    if (account === undefined) return 0;
    const deleted = account.paymentCount;
    account.changes?.accountReset(account);
    this.paymentTotal -= account.paymentCount;
    for (const record of account.idempotencyRecords.values()) {
      if (record.owner === account) {
        record.owner = undefined;
        this.recordTotal--;
      }
    }
    this.remove(account);
    return deleted;
  }

  /** Whether the sandbox is over its byte budget or a total cap. */
  private full(): boolean {
    return (
      this.totalBytes >= this.limits.memoryBudgetBytes ||
      this.paymentTotal >= this.limits.maxPaymentsTotal ||
      this.recordTotal >= this.limits.maxIdempotencyRecordsTotal
    );
  }

  /** Forgets idle accounts, least recently used first, until `enough()` or none is idle; each is logged. */
  private forgetIdleAccounts(enough: () => boolean): void {
    const idleBefore = this.serverNow - this.limits.idleMs;
    for (const [apiKey, account] of this.accounts) {
      if (enough()) return;
      // The Map is least recently used first: the first active account ends the search.
      if (account.lastUsedAt > idleBefore) return;
      const bytes = account.bytes;
      this.reset(apiKey);
      this.context.log?.(
        `sandbox: forgot an idle key (unused for over ${Math.round(this.limits.idleMs / 60_000)} min, ${bytes} bytes) to make room`,
      );
    }
  }

  /** Forgets an account that holds nothing any more: true when it was forgotten. */
  dropIfEmpty(account: Account): boolean {
    if (account.closed || !account.isEmpty()) return false;
    this.remove(account);
    return true;
  }

  release(account: Account): boolean {
    return this.dropIfEmpty(account);
  }

  /** How much the store holds, for tests and diagnostics. */
  stats(): { accounts: number; payments: number; idempotencyRecords: number; bytes: number } {
    return {
      accounts: this.accounts.size,
      payments: this.paymentTotal,
      idempotencyRecords: this.recordTotal,
      bytes: this.totalBytes,
    };
  }

  /** Whether an account is held under `key` (nothing is marked used). */
  holds(key: string): boolean {
    return this.accounts.has(key);
  }

  /**
   * The account held under `key`, created empty if there is none, without marking any account
   * used or forgetting one to make room: for a wrapper bringing accounts in (a journal read back).
   */
  hold(key: string): Account {
    return this.accounts.get(key) ?? this.newAccount(key);
  }

  /** Holds the account under `to` instead of `from` (a wrapper's account whose key is now known). */
  rename(from: string, to: string): Account | undefined {
    const account = this.accounts.get(from);
    if (account === undefined || this.accounts.has(to)) return undefined;
    this.accounts.delete(from);
    this.accounts.set(to, account);
    this.apiKeys.set(account, to);
    if (this.mostRecentKey === from) this.mostRecentKey = undefined;
    return account;
  }

  /** Every account, with the API key or key id it is held under. */
  *allAccounts(): IterableIterator<Account> {
    yield* this.accounts.values();
  }

  private recordOrderOf(account: Account): FifoQueue<IdempotencyRecord> {
    let order = this.accountRecordOrders.get(account);
    if (order === undefined) {
      order = new FifoQueue<IdempotencyRecord>();
      this.accountRecordOrders.set(account, order);
    }
    return order;
  }

  private remove(account: Account): void {
    if (!account.closed) this.totalBytes -= account.bytes;
    const apiKey = this.apiKeys.get(account);
    if (apiKey !== undefined && this.accounts.get(apiKey) === account) {
      this.accounts.delete(apiKey);
      if (this.mostRecentKey === apiKey) this.mostRecentKey = undefined;
    }
    account.changes?.accountDropped(account);
    account.closed = true;
  }
}
