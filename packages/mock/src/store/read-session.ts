// The StoreSession every store hands out: what it read for one request at its start, with the calls that depend on that read.
import type { StoredPayment } from './records.js';
import type { AccountStore, OpenClaim, StoreSession } from './store.js';

/** The claim of a session that was asked none (shared: never changed). */
export const NO_CLAIM: OpenClaim = { kind: 'skipped' };

/** What a store read for a session (see `ReadSession`). */
export interface SessionRead {
  account: AccountStore | undefined;
  claim: OpenClaim;
  /** The id of the payment read with the account, if one was asked. */
  paymentId: string | undefined;
  /** That payment as read (undefined: the key holds no such payment). */
  payment: StoredPayment | undefined;
  /** When the account's next PENDING payment settles (key's clock), as read; undefined: none. */
  settlesNext: number | undefined;
  /** Whether the sandbox has room: asked when the session opened (a write), else asked at once. */
  admit: () => Promise<boolean>;
}

/**
 * A request's session over what its store read (`SandboxStore.session`): the memory store fills
 * it at once, a networked store from its first round trip. It asks the store nothing itself but
 * `takeDueSettlements` and `admit`: every other call goes to `account`.
 *
 * @example
 * const session = new ReadSession({ account, claim: NO_CLAIM, paymentId: 'pay_1', payment, settlesNext: undefined, admit: () => Promise.resolve(true) });
 * session.paymentAsRead('pay_1'); // { payment }
 */
export class ReadSession implements StoreSession {
  readonly account: AccountStore | undefined;
  readonly claim: OpenClaim;
  /** The payment read with the account, until something of the session may change it. */
  private read: { payment: StoredPayment | undefined } | undefined;
  private readonly paymentId: string | undefined;
  private readonly settlesNext: number | undefined;
  private readonly admitted: () => Promise<boolean>;

  constructor(read: SessionRead) {
    this.account = read.account;
    this.claim = read.claim;
    this.paymentId = read.paymentId;
    this.read = read.paymentId === undefined ? undefined : { payment: read.payment };
    this.settlesNext = read.settlesNext;
    this.admitted = read.admit;
  }

  paymentAsRead(id: string): { payment: StoredPayment | undefined } | undefined {
    return id === this.paymentId ? this.read : undefined;
  }

  mayHaveDue(accountNow: number): boolean {
    return this.settlesNext !== undefined && this.settlesNext <= accountNow;
  }

  async takeDueSettlements(accountNow: number): Promise<StoredPayment[]> {
    if (this.account === undefined) return [];
    // A payment read ahead may settle now: read it again.
    this.read = undefined;
    return this.account.takeDueSettlements(accountNow);
  }

  admit(): Promise<boolean> {
    return this.admitted();
  }
}
