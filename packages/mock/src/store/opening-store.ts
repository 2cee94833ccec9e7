// A store that opens asynchronously (Valkey/Redis): every call waits for the open, and a failed open is tried again.
import type { AccountStore, SandboxStore, SessionAsk, StoreSession } from './store.js';

/** What opens the store; it rejects when the store cannot be opened now. */
export type StoreOpener = () => Promise<SandboxStore>;

/**
 * A `SandboxStore` in front of one that is still opening: each call waits for the open, then
 * goes to the opened store. While the open fails, each call rejects with its error (the service
 * answers `503 store_unavailable`), and the next call opens again, unless `retry(error)` says
 * the failure is final (another store format under the prefix). `sweep` does nothing until
 * the store is open.
 *
 * @example
 * const store = new OpeningStore(() => openRedisStore({ url, limits }).then((opened) => opened.store));
 * await store.ready(); // rejects with the reason when the store cannot be opened now
 */
export class OpeningStore implements SandboxStore {
  private opening: Promise<SandboxStore> | undefined;
  private opened: SandboxStore | undefined;
  private closed = false;

  constructor(
    private readonly opener: StoreOpener,
    /** Whether a failed open is tried again at the next call (default: always). */
    private readonly retry: (error: unknown) => boolean = () => true,
  ) {}

  /** Resolves once the store is open; rejects with the reason it cannot be, now. */
  async ready(): Promise<SandboxStore> {
    if (this.opened !== undefined) return this.opened;
    if (this.closed) throw new Error('the store was closed');
    this.opening ??= this.opener().then(
      (store) => {
        this.opened = store;
        return store;
      },
      (error: unknown) => {
        if (this.retry(error)) this.opening = undefined;
        throw error;
      },
    );
    return this.opening;
  }

  /** The opened store, if the open is done. */
  get current(): SandboxStore | undefined {
    return this.opened;
  }

  /** Stops opening: later calls reject. Returns the opened store, to close it. */
  close(): SandboxStore | undefined {
    this.closed = true;
    return this.opened;
  }

  async find(apiKey: string): Promise<AccountStore | undefined> {
    return (await this.ready()).find(apiKey);
  }

  async open(apiKey: string): Promise<AccountStore> {
    return (await this.ready()).open(apiKey);
  }

  async admit(): Promise<boolean> {
    return (await this.ready()).admit();
  }

  async reset(apiKey: string): Promise<number> {
    return (await this.ready()).reset(apiKey);
  }

  async release(account: AccountStore): Promise<boolean> {
    return (await this.ready()).release(account);
  }

  sweep(serverNow: number): void {
    this.opened?.sweep(serverNow);
  }

  async session(apiKey: string, ask: SessionAsk): Promise<StoreSession> {
    return (await this.ready()).session(apiKey, ask);
  }

  /** Runs `work` on the opened store's session, once the store is open. */
  async withSession<Result>(
    apiKey: string,
    ask: SessionAsk,
    work: (session: StoreSession) => Result | Promise<Result>,
  ): Promise<Result> {
    return (await this.ready()).withSession(apiKey, ask, work);
  }

  /** The opened store's health; before it is open, why not (an open is started, not waited on). */
  async health(): Promise<string | undefined> {
    if (this.opened !== undefined) return this.opened.health?.();
    if (this.closed) return 'the sandbox is closing';
    this.ready().catch(() => {});
    return 'its store is not open yet (unreachable, or still connecting)';
  }

  /** Sends the opened store's held-back writes now. */
  flush(): void {
    this.opened?.flush?.();
  }
}
