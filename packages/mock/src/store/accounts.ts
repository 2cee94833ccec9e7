// Every sandbox account by sk_test_ key, with the memory bounds: payment caps and record expiry.
import type { components } from '@payment-service/openapi';
import { Account, type IdempotencyRecord, type StoredPayment } from './account.js';
import { FifoQueue } from './fifo-queue.js';

type Payment = components['schemas']['Payment'];

/** The memory bounds of the store. */
export interface StoreLimits {
  maxPaymentsPerKey: number;
  maxPaymentsTotal: number;
  /** Idempotency records kept per key and in total follow the payment caps. */
  maxIdempotencyRecordsPerKey: number;
  maxIdempotencyRecordsTotal: number;
  /** Accounts kept; the least recently used one is forgotten beyond it. */
  maxAccounts: number;
}

/**
 * All accounts. Payments and idempotency records are also kept in global creation order, so
 * the oldest one overall is found in O(1) for eviction and for expiry sweeps.
 *
 * @example
 * const store = new AccountStore({ maxPaymentsPerKey: 10, maxPaymentsTotal: 100, maxIdempotencyRecordsPerKey: 10, maxIdempotencyRecordsTotal: 100, maxAccounts: 10 });
 * const account = store.open('sk_test_12345678');
 */
export class AccountStore {
  private readonly accounts = new Map<string, Account>();
  private mostRecentKey: string | undefined;
  private readonly apiKeys = new WeakMap<Account, string>();
  private readonly allPayments = new Map<StoredPayment, Account>();
  private readonly allRecords = new Map<IdempotencyRecord, Account>();
  /** Creation orders, oldest first (see FifoQueue for why not the Maps' own order). */
  private readonly paymentOrder = new FifoQueue<StoredPayment>();
  private readonly recordOrder = new FifoQueue<IdempotencyRecord>();
  private readonly accountRecordOrders = new WeakMap<Account, FifoQueue<IdempotencyRecord>>();
  private readonly isLivePayment = (stored: StoredPayment) => this.allPayments.has(stored);
  private readonly isLiveRecord = (record: IdempotencyRecord) => this.allRecords.has(record);

  constructor(private readonly limits: StoreLimits) {}

  /** The key's account if it has any data; reads never create one. Marks it recently used. */
  find(apiKey: string): Account | undefined {
    const account = this.accounts.get(apiKey);
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
   * The key's account, created empty on first use. Beyond `maxAccounts` the least recently used
   * account is forgotten with all its data.
   */
  open(apiKey: string): Account {
    let account = this.find(apiKey);
    if (account === undefined) {
      account = new Account();
      this.accounts.set(apiKey, account);
      this.mostRecentKey = apiKey;
      this.apiKeys.set(account, apiKey);
      while (this.accounts.size > this.limits.maxAccounts) {
        const leastRecentlyUsed = this.accounts.keys().next().value as string;
        this.reset(leastRecentlyUsed);
      }
    }
    return account;
  }

  /**
   * Stores a new payment, evicting the oldest payment of the key, then the oldest overall, while
   * a cap is exceeded.
   */
  addPayment(account: Account, payment: Payment, token: string, settlesAt?: number): StoredPayment {
    const stored = account.addPayment(payment, token, settlesAt);
    this.allPayments.set(stored, account);
    this.paymentOrder.push(stored);
    while (account.paymentCount > this.limits.maxPaymentsPerKey) {
      const oldest = account.removeOldestPayment();
      if (oldest !== undefined) this.allPayments.delete(oldest);
    }
    while (this.allPayments.size > this.limits.maxPaymentsTotal) {
      const oldest = this.paymentOrder.oldest(this.isLivePayment) as StoredPayment;
      const owner = this.allPayments.get(oldest) as Account;
      this.allPayments.delete(oldest);
      owner.removeOldestPayment();
      if (owner !== account) this.dropIfEmpty(owner);
    }
    this.paymentOrder.compact(this.allPayments.size, this.isLivePayment);
    return stored;
  }

  /** Stores an idempotency record, evicting the oldest ones while a cap is exceeded. */
  addIdempotencyRecord(account: Account, record: IdempotencyRecord): void {
    account.idempotencyRecords.set(record.key, record);
    this.allRecords.set(record, account);
    this.recordOrder.push(record);
    const accountOrder = this.recordOrderOf(account);
    accountOrder.push(record);
    while (account.idempotencyRecords.size > this.limits.maxIdempotencyRecordsPerKey) {
      const oldest = accountOrder.oldest(this.isLiveRecord) as IdempotencyRecord;
      this.deleteIdempotencyRecord(account, oldest);
    }
    while (this.allRecords.size > this.limits.maxIdempotencyRecordsTotal) {
      const oldest = this.recordOrder.oldest(this.isLiveRecord) as IdempotencyRecord;
      const owner = this.allRecords.get(oldest) as Account;
      this.deleteIdempotencyRecord(owner, oldest);
      if (owner !== account) this.dropIfEmpty(owner);
    }
    accountOrder.compact(account.idempotencyRecords.size, this.isLiveRecord);
    this.recordOrder.compact(this.allRecords.size, this.isLiveRecord);
  }

  /** Forgets one idempotency record. */
  deleteIdempotencyRecord(account: Account, record: IdempotencyRecord): void {
    if (account.idempotencyRecords.get(record.key) === record) {
      account.idempotencyRecords.delete(record.key);
    }
    this.allRecords.delete(record);
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
    for (;;) {
      const record = this.recordOrder.oldest(this.isLiveRecord);
      if (record === undefined || record.serverExpiresAt > serverNow) return;
      const account = this.allRecords.get(record) as Account;
      this.deleteIdempotencyRecord(account, record);
      this.dropIfEmpty(account);
    }
  }

  /** Deletes everything of the key: payments, idempotency records, faults, clock offset. */
  reset(apiKey: string): number {
    const account = this.accounts.get(apiKey);
    if (account === undefined) return 0;
    const deleted = account.paymentCount;
    for (const stored of account.storedPayments()) this.allPayments.delete(stored);
    for (const record of account.idempotencyRecords.values()) this.allRecords.delete(record);
    this.remove(account);
    return deleted;
  }

  /** Forgets an account that holds nothing any more. */
  dropIfEmpty(account: Account): void {
    if (account.isEmpty()) this.remove(account);
  }

  /** How much the store holds, for tests and diagnostics. */
  stats(): { accounts: number; payments: number; idempotencyRecords: number } {
    return {
      accounts: this.accounts.size,
      payments: this.allPayments.size,
      idempotencyRecords: this.allRecords.size,
    };
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
    const apiKey = this.apiKeys.get(account);
    if (apiKey !== undefined && this.accounts.get(apiKey) === account) {
      this.accounts.delete(apiKey);
      if (this.mostRecentKey === apiKey) this.mostRecentKey = undefined;
    }
    account.closed = true;
  }
}
