// The memory store as the seam hands it out: each call answers with a promise of what the synchronous memory store did at once.
import type { components, SandboxComponents } from '@payment-service/openapi';
import type { ProblemInit } from '../../shared/problems.js';
import type {
  IdempotencyRecord,
  PaymentRecord,
  StoredPayment,
  StoredResponse,
  TimelineStep,
} from '../records.js';
import type { RecordedEntry } from '../request-records.js';
import type {
  AccountStore,
  IdempotencyCompletion,
  PaymentPage,
  SandboxStore,
  SessionAsk,
  StoreSession,
  WebhookStore,
} from '../store.js';
import type {
  EndpointRecord,
  EndpointSaved,
  QueuedDelivery,
  StoredEvent,
  WebhookDelivery,
} from '../webhook-records.js';
import type { Account } from './account.js';
import { memorySession } from './memory-session.js';
import type { AccountWebhooks } from './webhook-state.js';

type Payment = components['schemas']['Payment'];
type Faults = SandboxComponents['schemas']['Faults'];

/**
 * What of a memory store the seam reaches, answered at once: the memory store itself
 * (`MemoryStore`), or the data directory's store wrapped around it (`JournaledStore`).
 */
export interface MemoryCore {
  /** The key's account if it holds anything; marks it used. */
  find(apiKey: string): Account | undefined;
  /** The key's account, created empty on first write. */
  open(apiKey: string): Account;
  /** Whether the sandbox has room for new work. */
  admit(): boolean;
  /** Deletes everything of the key: how many payments it held. */
  reset(apiKey: string): number;
  /** Forgets the account if it holds nothing: true when it was forgotten. */
  release(account: Account): boolean;
  /** Drops the records expired on the server's clock. */
  sweep(serverNow: number): void;
}

/**
 * The seam (`SandboxStore`) over a memory store: one calling convention for every store, so each
 * call answers with a promise, of what the memory store did at once in that call. The memory
 * store keeps its synchronous API for what reads it whole at once, in one tick: its own sessions,
 * the journal's replay and dump, the testing entry's `snapshot()`. Each account has one handle
 * (`MemoryAccountHandle`), made on first use.
 *
 * @example
 * const store = new MemorySeam(new MemoryStore(limits));
 * const account = await store.open('sk_test_12345678'); // the account's handle
 */
export class MemorySeam implements SandboxStore {
  /** `admit`, as a session hands it out (one function per store, not per session). */
  private readonly admitLater = async (): Promise<boolean> => this.core.admit();

  constructor(
    /** The memory store answering every call. */
    readonly core: MemoryCore,
  ) {}

  async find(apiKey: string): Promise<AccountStore | undefined> {
    const account = this.core.find(apiKey);
    return account === undefined ? undefined : handleOf(account);
  }

  async open(apiKey: string): Promise<AccountStore> {
    return handleOf(this.core.open(apiKey));
  }

  admit(): Promise<boolean> {
    return this.admitLater();
  }

  async reset(apiKey: string): Promise<number> {
    return this.core.reset(apiKey);
  }

  async release(account: AccountStore): Promise<boolean> {
    return account instanceof MemoryAccountHandle && this.core.release(account.account);
  }

  sweep(serverNow: number): void {
    this.core.sweep(serverNow);
  }

  async session(apiKey: string, ask: SessionAsk): Promise<StoreSession> {
    return memorySession(this.core, apiKey, ask, this.admitLater);
  }

  /** Runs `work` at once, on a session read at once: its answer is `work`'s, as it is. */
  withSession<Result>(
    apiKey: string,
    ask: SessionAsk,
    work: (session: StoreSession) => Result | Promise<Result>,
  ): Result | Promise<Result> {
    return work(memorySession(this.core, apiKey, ask, this.admitLater));
  }
}

/** Each account's handle, made on first use (handles keep their identity: the dispatcher keys by them). */
const handles = new WeakMap<Account, MemoryAccountHandle>();

/**
 * The seam's handle of a memory store's account (the same one every time).
 *
 * @example
 * const account = handleOf(store.open('sk_test_12345678'));
 * await account.payment('pay_1'); // undefined
 */
export function handleOf(account: Account): MemoryAccountHandle {
  let handle = handles.get(account);
  if (handle === undefined) {
    handle = new MemoryAccountHandle(account);
    handles.set(account, handle);
  }
  return handle;
}

/**
 * One memory account as the seam's `AccountStore`: each call runs on the account at once and
 * answers with a promise of its result (a throw becomes a rejection); properties read through.
 *
 * @example
 * const account = handleOf(memoryAccount);
 * await account.createPayment(record); // the StoredPayment
 */
export class MemoryAccountHandle implements AccountStore {
  /** The webhook state's handle, once the account has webhook state. */
  private hooks: MemoryWebhooksHandle | undefined;

  constructor(
    /** The memory account every call runs on. */
    readonly account: Account,
  ) {}

  get closed(): boolean {
    return this.account.closed;
  }

  get offsetSeconds(): number {
    return this.account.offsetSeconds;
  }

  get faults(): Faults {
    return this.account.faults;
  }

  get webhooks(): WebhookStore | undefined {
    const state = this.account.webhooks;
    return state === undefined ? undefined : this.hooksOf(state);
  }

  now(serverNow: number): number {
    return this.account.now(serverNow);
  }

  async setOffset(seconds: number): Promise<void> {
    this.account.setOffset(seconds);
  }

  async advanceOffset(seconds: number, maxSeconds: number): Promise<number> {
    return this.account.advanceOffset(seconds, maxSeconds);
  }

  async setFaults(faults: Faults): Promise<void> {
    this.account.setFaults(faults);
  }

  async consumeFailure(): Promise<ProblemInit | undefined> {
    return this.account.consumeFailure();
  }

  async consumeDrop(): Promise<boolean> {
    return this.account.consumeDrop();
  }

  async payment(id: string): Promise<StoredPayment | undefined> {
    return this.account.payment(id);
  }

  async listPayments(limit: number, startingAfter?: string): Promise<PaymentPage | undefined> {
    return this.account.listPayments(limit, startingAfter);
  }

  async storedPayments(): Promise<Iterable<StoredPayment>> {
    return this.account.storedPayments();
  }

  async createPayment(
    record: PaymentRecord,
    idempotency?: IdempotencyCompletion,
  ): Promise<StoredPayment | undefined> {
    return this.account.createPayment(record, idempotency);
  }

  async transitionPayment(
    id: string,
    expectedJson: string,
    payment: Payment,
    step: TimelineStep,
    idempotency?: IdempotencyCompletion,
  ): Promise<boolean> {
    return this.account.transitionPayment(id, expectedJson, payment, step, idempotency);
  }

  async takeDueSettlements(accountNow: number): Promise<StoredPayment[]> {
    return this.account.takeDueSettlements(accountNow);
  }

  async nextSettlementAt(): Promise<number | undefined> {
    return this.account.nextSettlementAt();
  }

  async idempotencyRecord(key: string): Promise<IdempotencyRecord | undefined> {
    return this.account.idempotencyRecord(key);
  }

  async claimIdempotencyKey(
    record: IdempotencyRecord,
    accountNow: number,
  ): Promise<IdempotencyRecord | undefined> {
    return this.account.claimIdempotencyKey(record, accountNow);
  }

  async completeIdempotencyRecord(
    record: IdempotencyRecord,
    response: StoredResponse,
  ): Promise<void> {
    this.account.completeIdempotencyRecord(record, response);
  }

  async forgetIdempotencyRecord(record: IdempotencyRecord): Promise<void> {
    this.account.forgetIdempotencyRecord(record);
  }

  async expireIdempotencyRecords(accountNow: number): Promise<void> {
    this.account.expireIdempotencyRecords(accountNow);
  }

  async listIdempotencyRecords(): Promise<Iterable<IdempotencyRecord>> {
    return this.account.listIdempotencyRecords();
  }

  webhookState(): WebhookStore {
    return this.hooksOf(this.account.webhookState());
  }

  /** Stored at once: nothing is held back. */
  recordRequest(entry: RecordedEntry): void {
    this.account.recordRequest(entry);
  }

  async recentRequests(): Promise<RecordedEntry[]> {
    return this.account.recentRequests();
  }

  private hooksOf(state: AccountWebhooks): MemoryWebhooksHandle {
    let hooks = this.hooks;
    if (hooks?.state !== state) {
      hooks = new MemoryWebhooksHandle(state);
      this.hooks = hooks;
    }
    return hooks;
  }
}

/**
 * One memory account's webhook state as the seam's `WebhookStore`: each call runs at once and
 * answers with a promise of its result.
 *
 * @example
 * const hooks = handleOf(memoryAccount).webhookState();
 * await hooks.listEndpoints(); // []
 */
export class MemoryWebhooksHandle implements WebhookStore {
  constructor(
    /** The memory webhook state every call runs on. */
    readonly state: AccountWebhooks,
  ) {}

  endpointCount(): number {
    return this.state.endpointCount();
  }

  async endpointById(id: string): Promise<EndpointRecord | undefined> {
    return this.state.endpointById(id);
  }

  async listEndpoints(): Promise<EndpointRecord[]> {
    return this.state.listEndpoints();
  }

  async saveEndpoint(record: EndpointRecord): Promise<EndpointSaved> {
    return this.state.saveEndpoint(record);
  }

  async deleteEndpoint(id: string): Promise<boolean> {
    return this.state.deleteEndpoint(id);
  }

  async disableEndpoint(record: EndpointRecord): Promise<void> {
    this.state.disableEndpoint(record);
  }

  async eventById(id: string): Promise<StoredEvent | undefined> {
    return this.state.eventById(id);
  }

  async listEvents(): Promise<StoredEvent[]> {
    return this.state.listEvents();
  }

  async rememberEvent(event: StoredEvent): Promise<boolean> {
    return this.state.rememberEvent(event);
  }

  async deliveryLog(): Promise<readonly WebhookDelivery[]> {
    return this.state.deliveryLog();
  }

  async record(entry: WebhookDelivery): Promise<void> {
    this.state.record(entry);
  }

  async enqueue(delivery: Omit<QueuedDelivery, 'sequence'>): Promise<boolean> {
    return this.state.enqueue(delivery);
  }

  async nextAttemptAt(): Promise<number | undefined> {
    return this.state.nextAttemptAt();
  }

  async claimDueAttempt(accountNow: number): Promise<QueuedDelivery | undefined> {
    return this.state.claimDueAttempt(accountNow);
  }

  async finishAttempt(
    delivery: QueuedDelivery,
    retry?: Omit<QueuedDelivery, 'sequence'>,
  ): Promise<boolean> {
    return this.state.finishAttempt(delivery, retry);
  }

  async queuedAttempts(): Promise<QueuedDelivery[]> {
    return this.state.queuedAttempts();
  }
}
