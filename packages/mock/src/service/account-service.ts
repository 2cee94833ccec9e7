// The account service: the one owner of a key's state; its operations return { result, events }.
import type { components, SandboxComponents } from '@payment-service/openapi';
import * as payments from '../domain/payments.js';
import type { TokenTable } from '../domain/tokens.js';
import {
  cancelPayment,
  capturePayment,
  refundPayment,
  settlePendingPayment,
} from '../domain/transitions.js';
import type { WebhookAddressPolicy } from '../domain/webhook-address.js';
import { type Faults, MAX_HELD_REQUESTS_PER_KEY, normalizeFaults } from '../shared/faults.js';
import type { RandomSource } from '../shared/ids.js';
import type { ProblemInit } from '../shared/problems.js';
import { type Clock, formatTimestamp } from '../shared/time.js';
import type { Account, IdempotencyRecord, StoredResponse, TimelineStep } from '../store/account.js';
import type { AccountStore } from '../store/accounts.js';
import { type RecordedEntry, recordedEntry } from '../store/request-log.js';
import {
  type EndpointRecord,
  hasSubscribers,
  receiversOf,
  type StoredEvent,
} from '../store/webhook-state.js';
import { paymentEvent } from '../webhooks/events.js';
import {
  abandonIdempotentRequest,
  beginIdempotentRequest,
  completeIdempotentRequest,
  type IdempotencyDecision,
  type IdempotentRequest,
} from './idempotency.js';
import { inspectAccount } from './inspector.js';
import * as endpoints from './webhook-endpoints.js';

type Schemas = components['schemas'];
type SandboxSchemas = SandboxComponents['schemas'];
type Payment = Schemas['Payment'];

/** What every account service of one server shares: the store, tokens, clock and settings. */
export interface SandboxState {
  store: AccountStore;
  tokens: TokenTable;
  clock: Clock;
  settlementDelayMs: number;
  idempotencyTtlMs: number;
  /** The server-wide endpoint (the CLI's `--webhook-url`), if any. */
  defaultEndpoint: EndpointRecord | undefined;
  /**
   * Requests each key has waiting on its `latency_ms` fault (by key, not by account: a reset
   * does not end the waits, so it must not free their slots either).
   */
  heldRequests: Map<string, number>;
  /** The addresses the key's webhook endpoints may reach. */
  webhookPolicy: WebhookAddressPolicy;
  /** Where ids, signing secrets and random choices come from (seeded in a test sandbox). */
  random: RandomSource;
}

/** An event to deliver: made by an operation, handed to the webhook dispatcher. */
export interface EventDelivery {
  account: Account;
  event: StoredEvent;
  /** When it is due, on the key's sandbox clock. */
  dueAt: number;
}

/** What an operation did: its result, and the events it caused (in order). */
export interface Change<Result> {
  result: Result;
  events: EventDelivery[];
}

/**
 * Settles every PENDING payment of the account that is due at `accountNow`: the one place where
 * pending payments settle. Returns how many settled and their events.
 *
 * @example
 * const { result: settled, events } = settleDuePayments(sandbox, account, account.now(Date.now()));
 */
export function settleDuePayments(
  sandbox: SandboxState,
  account: Account,
  accountNow: number,
): Change<number> {
  const events: EventDelivery[] = [];
  let settled = 0;
  for (const stored of account.takeDueSettlements(accountNow)) {
    const behaviour = sandbox.tokens.behaviourOf(stored.token);
    const payment = stored.payment;
    if (behaviour === undefined || !settlePendingPayment(payment, behaviour)) continue;
    settled++;
    const at = stored.settlesAt ?? accountNow;
    const { status, amount_captured } = payment;
    account.updatePayment(stored, payment, {
      at,
      change: 'settled',
      status,
      amount: amount_captured,
    });
    emit(sandbox, account, payment, at, events);
  }
  return { result: settled, events };
}

/** Records the event of a payment's new status when an endpoint listens to the key. */
function emit(
  sandbox: SandboxState,
  account: Account,
  payment: Payment,
  at: number,
  events: EventDelivery[],
): void {
  const event = prepareEvent(sandbox, account, payment, at);
  if (event !== undefined) commitEvent(account, event, events);
}

/** The event of a payment's new status, built but not recorded (undefined with no listener). */
function prepareEvent(
  sandbox: SandboxState,
  account: Account,
  payment: Payment,
  at: number,
): EventDelivery | undefined {
  if (!hasSubscribers(account.webhooks, sandbox.defaultEndpoint)) return undefined;
  return { account, event: paymentEvent(payment, at, sandbox.random), dueAt: at };
}

/** Records a prepared event for redelivery and lists it for delivery; cannot fail. */
function commitEvent(account: Account, delivery: EventDelivery, events: EventDelivery[]): void {
  account.webhookState().rememberEvent(delivery.event);
  events.push(delivery);
}

const noEvents: EventDelivery[] = [];

/** A change's answer, with the amount its timeline step records. */
type ChangedPayment<Body> =
  | (Extract<payments.DomainResult<Body>, { ok: true }> & { amount: number })
  | Extract<payments.DomainResult<Body>, { ok: false }>;

/** The most a key's sandbox clock may be ahead of real time: 100 years, in seconds. */
export const MAX_CLOCK_OFFSET_SECONDS = 3_155_760_000;

/**
 * The operations on one key's sandbox account. Reads never create an account; the first write
 * does. Every state change of the key goes through these methods.
 *
 * @example
 * const service = new AccountService(sandbox, 'sk_test_12345678');
 * const { result, events } = service.createPayment({ amount: 1000, currency: 'KZT', payment_method: { type: 'token', token: 'tok_test_success' } });
 */
export class AccountService {
  constructor(
    private readonly sandbox: SandboxState,
    readonly apiKey: string,
  ) {}

  /** The key's account, if it holds anything. */
  find(): Account | undefined {
    return this.sandbox.store.find(this.apiKey);
  }

  /** The key's clock now (ms epoch): the server's time plus the key's offset. */
  now(account: Account | undefined = this.find()): number {
    const serverNow = this.sandbox.clock.now();
    return account === undefined ? serverNow : account.now(serverNow);
  }

  /** Settles the key's pending payments that are due. */
  settleDue(): Change<number> {
    const account = this.find();
    if (account === undefined) return { result: 0, events: noEvents };
    return settleDuePayments(this.sandbox, account, this.now(account));
  }

  /**
   * Creates a payment. Everything that can fail (the payment, its timestamp, its event) is built
   * before the first change; the changes after it cannot fail.
   */
  createPayment(request: Schemas['CreatePaymentRequest']): Change<payments.DomainResult<Payment>> {
    const existing = this.find();
    const accountNow = this.now(existing);
    const built = payments.buildPayment(
      this.sandbox.tokens,
      this.sandbox.settlementDelayMs,
      accountNow,
      request,
      this.sandbox.random,
    );
    if (!built.ok) return { result: built, events: noEvents };
    const { payment, settlesAt } = built.body;
    const account = existing ?? this.sandbox.store.open(this.apiKey);
    const event = prepareEvent(this.sandbox, account, payment, accountNow);
    // Commit: nothing below throws.
    const stored = this.sandbox.store.addPayment(
      account,
      payment,
      request.payment_method.token,
      accountNow,
      settlesAt,
    );
    const events: EventDelivery[] = [];
    if (event !== undefined) commitEvent(account, event, events);
    // Serialized once: the answer, its idempotency record, the inspector and the store share it.
    return { result: { ok: true, status: 201, body: payment, text: stored.json }, events };
  }

  retrievePayment(id: string): payments.DomainResult<Payment> {
    return payments.retrievePayment(this.find(), id);
  }

  listPayments(
    limit: number,
    startingAfter?: string,
  ): payments.DomainResult<Schemas['PaymentList']> {
    return payments.listPayments(this.find(), limit, startingAfter);
  }

  capturePayment(
    id: string,
    request: Schemas['CapturePaymentRequest'] | undefined,
  ): Change<payments.DomainResult<Payment>> {
    return this.changePayment(id, 'captured', (draft) => {
      const result = capturePayment(draft, request?.amount);
      return result.ok
        ? { ok: true, status: 200, body: draft, amount: draft.amount_captured }
        : result;
    });
  }

  cancelPayment(id: string): Change<payments.DomainResult<Payment>> {
    return this.changePayment(id, 'canceled', (draft) => {
      const result = cancelPayment(draft);
      return result.ok ? { ok: true, status: 200, body: draft, amount: 0 } : result;
    });
  }

  createRefund(
    id: string,
    request: Schemas['CreateRefundRequest'] | undefined,
  ): Change<payments.DomainResult<Schemas['Refund']>> {
    return this.changePayment(id, 'refunded', (draft, accountNow) => {
      const result = refundPayment(draft, request?.amount);
      if (!result.ok) return result;
      return {
        ok: true,
        status: 201,
        body: payments.refundObject(draft, result.value, accountNow, this.sandbox.random),
        amount: result.value,
      };
    });
  }

  createWebhookEndpoint(
    request: Schemas['CreateWebhookEndpointRequest'],
  ): payments.DomainResult<Schemas['WebhookEndpointWithSecret']> {
    const account = this.sandbox.store.open(this.apiKey);
    return endpoints.createWebhookEndpoint(
      account,
      this.now(account),
      request,
      this.sandbox.webhookPolicy,
      this.sandbox.random,
    );
  }

  listWebhookEndpoints(): payments.DomainResult<Schemas['WebhookEndpointList']> {
    return endpoints.listWebhookEndpoints(this.find());
  }

  deleteWebhookEndpoint(id: string): payments.DomainResult<Schemas['DeletedWebhookEndpoint']> {
    return endpoints.deleteWebhookEndpoint(this.find(), id);
  }

  /** Looks an Idempotency-Key up (opening the account) and decides: proceed, replay or problem. */
  beginIdempotentRequest(request: IdempotentRequest): IdempotencyDecision {
    const account = this.sandbox.store.open(this.apiKey);
    const ttlMs = this.sandbox.idempotencyTtlMs;
    return beginIdempotentRequest(
      this.sandbox.store,
      account,
      request,
      this.now(account),
      this.sandbox.clock.now(),
      ttlMs,
    );
  }

  /** Stores the answer of an idempotent request, or forgets the record when `stored` is undefined. */
  finishIdempotentRequest(record: IdempotencyRecord, stored: StoredResponse | undefined): void {
    const account = this.find();
    if (account === undefined) return;
    if (stored !== undefined)
      completeIdempotentRequest(this.sandbox.store, account, record, stored);
    else abandonIdempotentRequest(this.sandbox.store, account, record);
  }

  /**
   * Whether the sandbox has room for this request's new data: `sandbox_full` (503, with
   * Retry-After) when the whole sandbox is over its memory budget even after forgetting idle
   * keys. Nothing of any key is removed to make room for another.
   */
  checkCapacity(): ProblemInit | undefined {
    if (this.sandbox.store.admit()) return undefined;
    return {
      code: 'sandbox_full',
      detail:
        'The sandbox is out of memory for new data (its memory budget is shared by every key). Retry later, or reset keys you no longer need with POST /_sandbox/reset.',
      headers: { 'Retry-After': '30' },
    };
  }

  /** The latency armed for the key's /v1 requests, in ms. */
  latencyMs(): number {
    return this.find()?.faults.latency_ms ?? 0;
  }

  /**
   * Takes one of the key's `MAX_HELD_REQUESTS_PER_KEY` slots for a request its latency fault
   * delays: the function that gives it back (once), or undefined when every slot is taken.
   */
  holdRequest(): (() => void) | undefined {
    const { heldRequests } = this.sandbox;
    const held = heldRequests.get(this.apiKey) ?? 0;
    if (held >= MAX_HELD_REQUESTS_PER_KEY) return undefined;
    heldRequests.set(this.apiKey, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (heldRequests.get(this.apiKey) ?? 1) - 1;
      if (left > 0) heldRequests.set(this.apiKey, left);
      else heldRequests.delete(this.apiKey);
    };
  }

  /** Consumes one armed `fail_next`: the problem to answer with, if any. */
  takeFailure(): ProblemInit | undefined {
    const account = this.find();
    return account?.consumeFailure();
  }

  /** Consumes one armed `drop_after_commit`: whether this answer must be dropped. */
  takeDrop(): boolean {
    const account = this.find();
    return account?.consumeDrop() === true;
  }

  faults(): Faults {
    return normalizeFaults(this.find()?.faults ?? {});
  }

  setFaults(faults: Faults): Faults {
    const account = this.sandbox.store.open(this.apiKey);
    account.setFaults(normalizeFaults(faults));
    this.release();
    return normalizeFaults(account.faults);
  }

  clearFaults(): Faults {
    const account = this.find();
    if (account !== undefined) {
      account.setFaults({});
      this.release();
    }
    return {};
  }

  clock(): SandboxSchemas['Clock'] {
    const account = this.find();
    return clockBody(this.now(account), account?.offsetSeconds ?? 0, 0);
  }

  /**
   * Moves the key's clock forward: due payments settle, retries come due, records expire. The
   * total offset is at most `MAX_CLOCK_OFFSET_SECONDS` (100 years); beyond it nothing moves.
   */
  advanceClock(seconds: number): Change<payments.DomainResult<SandboxSchemas['Clock']>> {
    const offset = (this.find()?.offsetSeconds ?? 0) + seconds;
    if (offset > MAX_CLOCK_OFFSET_SECONDS) {
      const message = `seconds would take the sandbox clock's total offset to ${offset} s, beyond the limit of ${MAX_CLOCK_OFFSET_SECONDS} s (100 years); reset the sandbox to start again`;
      const problem: ProblemInit = {
        code: 'invalid_request',
        detail: `${message}.`,
        param: 'seconds',
        errors: [{ param: 'seconds', code: 'maximum', message }],
      };
      return { result: { ok: false, problem }, events: noEvents };
    }
    const account = this.sandbox.store.open(this.apiKey);
    account.setOffset(offset);
    const accountNow = this.now(account);
    const { result: settled, events } = settleDuePayments(this.sandbox, account, accountNow);
    this.sandbox.store.expireIdempotencyRecords(account, accountNow);
    this.release();
    const body = clockBody(accountNow, account.offsetSeconds, settled);
    return { result: { ok: true, status: 200, body }, events };
  }

  /** Deletes everything of the key. */
  reset(): SandboxSchemas['SandboxReset'] {
    return { object: 'sandbox_reset', deleted_payments: this.sandbox.store.reset(this.apiKey) };
  }

  /** The key's delivery attempts, newest first; only one event's when `eventId` is given. */
  webhookDeliveries(eventId: string | null): SandboxSchemas['WebhookDeliveryList'] {
    const log = this.find()?.webhooks?.log ?? [];
    const data = log.filter((entry) => eventId === null || entry.event_id === eventId);
    return { object: 'list', data: data.reverse() };
  }

  /** Sends one of the key's events again: how many endpoints get it, or undefined if unknown. */
  redeliverEvent(eventId: string): Change<number | undefined> {
    const account = this.find();
    const event = account?.webhooks?.events.get(eventId);
    if (account === undefined || event === undefined)
      return { result: undefined, events: noEvents };
    const receivers = receiversOf(account.webhooks, this.sandbox.defaultEndpoint, event.type);
    return { result: receivers.length, events: [{ account, event, dueAt: this.now(account) }] };
  }

  /**
   * One snapshot of everything the console's inspector shows for the key (secrets masked).
   * Creates nothing.
   */
  inspector(): SandboxSchemas['Inspector'] {
    const account = this.find();
    return {
      object: 'sandbox_inspector',
      clock: clockBody(this.now(account), account?.offsetSeconds ?? 0, 0),
      faults: normalizeFaults(account?.faults ?? {}),
      ...inspectAccount(account),
    };
  }

  /**
   * Records a request of the key for the inspector, on the key's clock. Skipped (returns false)
   * when the key has no account and the sandbox has no room for a new one. Cannot throw.
   */
  recordRequest(entry: Omit<RecordedEntry, 'receivedAt'>, receivedAtServer: number): boolean {
    const existing = this.find();
    if (existing === undefined && !this.sandbox.store.admit()) return false;
    const account = existing ?? this.sandbox.store.open(this.apiKey);
    account.requestLog().record(recordedEntry(entry, account.now(receivedAtServer)));
    return true;
  }

  /** Forgets the account when it holds nothing any more. */
  release(): void {
    const account = this.find();
    if (account !== undefined) this.sandbox.store.dropIfEmpty(account);
  }

  /**
   * Changes one payment all or nothing: the change is made on a draft, its answer and event are
   * built from the draft, and only then is the draft copied onto the stored payment.
   */
  private changePayment<Body>(
    id: string,
    kind: TimelineStep['change'],
    change: (draft: Payment, accountNow: number) => ChangedPayment<Body>,
  ): Change<payments.DomainResult<Body>> {
    const account = this.find();
    const stored = account?.payments.get(id);
    if (account === undefined || stored === undefined) {
      return { result: payments.paymentNotFound(id), events: noEvents };
    }
    const accountNow = this.now(account);
    const draft: Payment = stored.payment;
    const statusBefore = draft.status;
    const result = change(draft, accountNow);
    if (!result.ok) return { result, events: noEvents };
    const event =
      draft.status === statusBefore
        ? undefined
        : prepareEvent(this.sandbox, account, draft, accountNow);
    // Commit: nothing below throws.
    account.updatePayment(stored, draft, {
      at: accountNow,
      change: kind,
      status: draft.status,
      amount: result.amount,
    });
    const events: EventDelivery[] = [];
    if (event !== undefined) commitEvent(account, event, events);
    const { amount: _amount, ...answer } = result;
    return { result: answer, events };
  }
}

function clockBody(
  accountNow: number,
  offsetSeconds: number,
  settled: number,
): SandboxSchemas['Clock'] {
  return {
    object: 'sandbox_clock',
    now: formatTimestamp(accountNow),
    offset_seconds: offsetSeconds,
    settled_payments: settled,
  };
}
