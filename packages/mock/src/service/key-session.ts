// One request's way to one key's state: the store session it opened, and the key's account it holds.
import type { AccountStore, OpenClaim, SessionAsk, StoreSession } from '../store/store.js';
import type { SandboxState } from './sandbox-state.js';

/**
 * One key for one request (or one call of the testing entry): the `StoreSession` the request
 * opened (`begin`: what the store read for it in one go), and the key's account as last read,
 * reused by the request's later steps while it is open (a reset closes it: then it is read
 * again). Shared by the facets of the request's account service.
 *
 * @example
 * const key = new KeySession(sandbox, 'sk_test_12345678');
 * await key.begin({ write: false, serverNow: Date.now(), paymentId: 'pay_1' });
 * key.now(key.account); // the key's clock, ms epoch
 */
export class KeySession {
  /** What the store read when the request began, until the request waited. */
  session: StoreSession | undefined;
  /** The key's account as last read (only while open: see `account`). */
  private held: AccountStore | undefined;
  /** Whether the Idempotency-Key claimed with the session was taken by the request's key step. */
  private claimUsed = false;

  constructor(
    readonly sandbox: SandboxState,
    readonly apiKey: string,
  ) {}

  /**
   * Opens the request's store session: the store reads (a write: opens, claims, asks for room)
   * what `ask` names, in one go.
   */
  begin(ask: SessionAsk): Promise<StoreSession> {
    // Every request's path: a reaction on the store's promise, not an async frame.
    return this.sandbox.store.session(this.apiKey, ask).then((session) => {
      this.session = session;
      this.held = session.account;
      this.claimUsed = false;
      return session;
    });
  }

  /**
   * Runs `work` on the request's store session (what `ask` names, read in one go), when the
   * store has read it: at once on the memory store, after its round trip on a networked one.
   * Answers what `work` answers.
   */
  within<Result>(ask: SessionAsk, work: () => Result | Promise<Result>): Result | Promise<Result> {
    return this.sandbox.store.withSession(this.apiKey, ask, (session) => {
      this.session = session;
      this.held = session.account;
      this.claimUsed = false;
      return work();
    });
  }

  /** The request waited (its latency fault): what its session read no longer stands. */
  waited(): void {
    this.session = undefined;
  }

  /** The key's account as read for this request, while it is open; no store call. */
  get account(): AccountStore | undefined {
    const held = this.held;
    return held === undefined || held.closed ? undefined : held;
  }

  /** The key's account, if it holds anything (reads never create one). */
  async find(): Promise<AccountStore | undefined> {
    const held = this.account;
    if (held !== undefined) return held;
    this.held = await this.sandbox.store.find(this.apiKey);
    return this.held;
  }

  /** The key's account, created on first write. */
  async open(): Promise<AccountStore> {
    const held = this.account;
    if (held !== undefined) return held;
    const opened = await this.sandbox.store.open(this.apiKey);
    this.held = opened;
    return opened;
  }

  /**
   * The Idempotency-Key claim the session made (or found held), with the account that holds it,
   * for the request's key step (once: a second ask gets undefined).
   */
  sessionClaim(): { claim: OpenClaim; account: AccountStore } | undefined {
    const session = this.session;
    if (session === undefined || this.claimUsed || session.account === undefined) return undefined;
    if (session.claim.kind === 'skipped') return undefined;
    this.claimUsed = true;
    return { claim: session.claim, account: session.account };
  }

  /** The key's clock now (ms epoch) with its account as read: the server's time plus the offset. */
  now(account: AccountStore | undefined): number {
    const serverNow = this.sandbox.clock.now();
    return account === undefined ? serverNow : account.now(serverNow);
  }

  /**
   * Forgets the account when it holds nothing any more; then this request holds it no more (a
   * networked store keeps the handle open for other requests): what it records after (the
   * inspector's record of a refusal) finds the key again, as on the memory store.
   */
  release(): Promise<void> {
    const held = this.account;
    // The account the request held (every write's path): one store call, no async frame.
    if (held !== undefined) {
      return this.sandbox.store.release(held).then((forgotten) => {
        if (forgotten) this.held = undefined;
      });
    }
    return this.releaseFound();
  }

  private async releaseFound(): Promise<void> {
    const account = await this.find();
    if (account !== undefined && (await this.sandbox.store.release(account))) {
      this.held = undefined;
    }
  }
}
