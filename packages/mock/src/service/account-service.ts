// The account service of one key: its facets (payments, idempotency, faults, clock, webhooks, inspector) over the store seam.
import type { SandboxComponents } from '@payment-service/openapi';
import type { ProblemInit } from '../shared/problems.js';
import type { AccountStore, SessionAsk } from '../store/store.js';
import { ClockFacet } from './clock-facet.js';
import { FaultsFacet } from './faults-facet.js';
import { type IdempotentRequest, newIdempotencyRecord } from './idempotency.js';
import { IdempotencyFacet } from './idempotency-facet.js';
import { InspectorFacet } from './inspector-facet.js';
import { KeySession } from './key-session.js';
import { PaymentsFacet } from './payments-facet.js';
import type { SandboxState } from './sandbox-state.js';
import { WebhooksFacet } from './webhooks-facet.js';

export { MAX_CLOCK_OFFSET_SECONDS } from './clock-facet.js';
export { settleDuePayments } from './payments-facet.js';
export type { Change, EventDelivery, SandboxState } from './sandbox-state.js';

/**
 * The operations on one key's sandbox account, as facets: `payments`, `idempotency`, `faults`,
 * `clock`, `webhooks`, `inspector`. Reads never create an account; the first write does. Every
 * state change of the key goes through these facets, and they reach the state only through the
 * store seam (`SandboxState.store`, see store/store.ts). A service serves one request (or one
 * call of the testing entry): it holds the request's store session (`readAhead`) and the key's
 * account as read (see `KeySession`).
 *
 * @example
 * const service = new AccountService(sandbox, 'sk_test_12345678');
 * const { result, events } = await service.payments.create({ amount: 1000, currency: 'KZT', payment_method: { type: 'token', token: 'tok_test_success' } });
 */
export class AccountService {
  private readonly scope: KeySession;
  // Each facet is made on first use: a request reaches two or three of the six.
  #payments: PaymentsFacet | undefined;
  #idempotency: IdempotencyFacet | undefined;
  #faults: FaultsFacet | undefined;
  #clock: ClockFacet | undefined;
  #webhooks: WebhooksFacet | undefined;
  #inspector: InspectorFacet | undefined;

  constructor(sandbox: SandboxState, apiKey: string) {
    this.scope = new KeySession(sandbox, apiKey);
  }

  /** Payments: create, retrieve, list, capture, cancel, refund, settlement. */
  get payments(): PaymentsFacet {
    this.#payments ??= new PaymentsFacet(this.scope);
    return this.#payments;
  }

  /** Idempotency-Key records: claim, complete, forget. */
  get idempotency(): IdempotencyFacet {
    this.#idempotency ??= new IdempotencyFacet(this.scope);
    return this.#idempotency;
  }

  /** The key's injected faults. */
  get faults(): FaultsFacet {
    this.#faults ??= new FaultsFacet(this.scope);
    return this.#faults;
  }

  /** The key's sandbox clock. */
  get clock(): ClockFacet {
    this.#clock ??= new ClockFacet(this.scope);
    return this.#clock;
  }

  /** Webhook endpoints, events and deliveries. */
  get webhooks(): WebhooksFacet {
    this.#webhooks ??= new WebhooksFacet(this.scope);
    return this.#webhooks;
  }

  /** The inspector's view of the key's requests. */
  get inspector(): InspectorFacet {
    this.#inspector ??= new InspectorFacet(this.scope);
    return this.#inspector;
  }

  get apiKey(): string {
    return this.scope.apiKey;
  }

  /** Whether the sandbox's store serves now (undefined), else why not: what health answers. */
  async storeHealth(): Promise<string | undefined> {
    return this.scope.sandbox.store.health?.();
  }

  /**
   * Opens the request's store session: the store reads, in one go, what this request's steps
   * will ask: a POST opens the account, claims `request`'s Idempotency-Key (when no fault is
   * armed) and asks whether the sandbox has room; a read finds the account; either reads the
   * payment `paymentId`. The steps then use what was read instead of asking again. One await,
   * whatever the store: the memory store answers at once, a networked one in one round trip.
   *
   * @example
   * await service.readAhead(true, request, undefined);
   * const decision = await service.idempotency.begin(request); // claimed already: no store call
   */
  readAhead(
    post: boolean,
    request: IdempotentRequest | undefined,
    paymentId: string | undefined,
  ): Promise<unknown> {
    return this.scope.begin(this.sessionAsk(post, request, paymentId));
  }

  /**
   * Runs the request's `work` on its store session (what `readAhead` reads), when the store has
   * read it: at once on the memory store, after its round trip on a networked one. Answers what
   * `work` answers.
   *
   * @example
   * const response = service.withSession(false, undefined, 'pay_1', () => answer(service.payments.retrieveAsRead('pay_1')));
   */
  withSession<Result>(
    post: boolean,
    request: IdempotentRequest | undefined,
    paymentId: string | undefined,
    work: () => Result | Promise<Result>,
  ): Result | Promise<Result> {
    return this.scope.within(this.sessionAsk(post, request, paymentId), work);
  }

  private sessionAsk(
    post: boolean,
    request: IdempotentRequest | undefined,
    paymentId: string | undefined,
  ): SessionAsk {
    const { sandbox } = this.scope;
    const claim =
      request === undefined
        ? undefined
        : (accountNow: number) =>
            newIdempotencyRecord(
              request,
              accountNow,
              sandbox.clock.now(),
              sandbox.idempotencyTtlMs,
            );
    return { write: post, serverNow: sandbox.clock.now(), claim, paymentId };
  }

  /**
   * Gives back an Idempotency-Key claimed with the session that the request never took (it
   * ended before its key step): undefined, at once, when there is none.
   */
  giveBackUnusedClaim(): Promise<void> | undefined {
    const unused = this.scope.sessionClaim();
    if (unused === undefined || unused.claim.kind !== 'claimed') return undefined;
    return Promise.resolve(unused.account.forgetIdempotencyRecord(unused.claim.record)).catch(
      () => {},
    );
  }

  /** The request waited on its latency fault: what its session read is stale. */
  waited(): void {
    this.scope.waited();
  }

  /** The key's account, if it holds anything. */
  find(): Promise<AccountStore | undefined> {
    return this.scope.find();
  }

  /**
   * Whether the sandbox has room for this request's new data: `sandbox_full` (503, with
   * Retry-After) when the whole sandbox is over its memory budget even after forgetting idle
   * keys. Nothing of any key is removed to make room for another.
   */
  checkCapacity(): Promise<ProblemInit | undefined> {
    // A write's session asked it when it opened (a networked store: in the same round trip).
    const session = this.scope.session;
    const admitted = session === undefined ? this.scope.sandbox.store.admit() : session.admit();
    return admitted.then(capacityProblem);
  }

  /**
   * Deletes everything of the key (spec: resetSandbox), with the inspector's records of the
   * requests this server answered before it: a networked store's record of a key's first request
   * is written after its answer, and would otherwise land after the reset.
   */
  async reset(): Promise<SandboxComponents['schemas']['SandboxReset']> {
    const { store, pendingRecords } = this.scope.sandbox;
    store.flush?.();
    await pendingRecords.settled();
    const deleted = await store.reset(this.scope.apiKey);
    return { object: 'sandbox_reset', deleted_payments: deleted };
  }

  /** Forgets the account when it holds nothing any more. */
  release(): Promise<void> {
    return this.scope.release();
  }
}

/** No problem when the sandbox has room, else `sandbox_full` (503, with Retry-After). */
function capacityProblem(admitted: boolean): ProblemInit | undefined {
  if (admitted) return undefined;
  return {
    code: 'sandbox_full',
    detail:
      'The sandbox is out of memory for new data (its memory budget is shared by every key). Retry later, or reset keys you no longer need with POST /_sandbox/reset.',
    headers: { 'Retry-After': '30' },
  };
}
