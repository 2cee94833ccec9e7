// The payments of one key: create (with its Idempotency-Key answer, in one store call), retrieve, list, capture, cancel, refund, settle.
import type { components } from '@payment-service/openapi';
import * as payments from '../domain/payments.js';
import {
  cancelPayment,
  capturePayment,
  refundPayment,
  settlePendingPayment,
} from '../domain/transitions.js';
import { newPaymentId } from '../shared/ids.js';
import {
  jsonResponse,
  type PackedTimeline,
  type StoredPayment,
  type TimelineStep,
} from '../store/records.js';
import { type AccountStore, StoreUnavailableError } from '../store/store.js';
import type { IdempotencyClaim } from './idempotency.js';
import type { KeySession } from './key-session.js';
import { commitEvent, prepareEvent } from './payment-events.js';
import { type Change, type EventDelivery, noEvents, type SandboxState } from './sandbox-state.js';

type Schemas = components['schemas'];
type Payment = Schemas['Payment'];

/** A change's answer, with the amount its timeline step records. */
type ChangedPayment<Body> =
  | (Extract<payments.DomainResult<Body>, { ok: true }> & { amount: number })
  | Extract<payments.DomainResult<Body>, { ok: false }>;

/**
 * How often a change is tried on the payment's state when another change keeps coming first (a
 * networked store's compare-and-set refused it). Each refusal means another change of the
 * payment was stored meanwhile; each try reads the payment again and checks the change on it
 * anew, so a change that no longer applies answers its own problem (400 over the amount, 409
 * not capturable), as the memory store, where no change comes between, answers it. Only a
 * payment changed this many times while one request tried (a livelock) answers 409 "kept
 * changing": up to this many requests on one payment at once are answered the same by every store.
 */
export const TRANSITION_ATTEMPTS = 64;

/**
 * Settles every PENDING payment of the account that is due at `accountNow`: the one place where
 * pending payments settle. Returns how many settled and their events.
 *
 * @example
 * const { result: settled, events } = await settleDuePayments(sandbox, account, account.now(Date.now()));
 */
export async function settleDuePayments(
  sandbox: SandboxState,
  account: AccountStore,
  accountNow: number,
): Promise<Change<number>> {
  return settleTaken(sandbox, account, accountNow, await account.takeDueSettlements(accountNow));
}

/** Nothing settled (shared: never changed). */
const NONE_SETTLED: Promise<Change<number>> = Promise.resolve({ result: 0, events: noEvents });

/** Settles the payments taken off the schedule (each this caller's alone). */
async function settleTaken(
  sandbox: SandboxState,
  account: AccountStore,
  accountNow: number,
  taken: StoredPayment[],
): Promise<Change<number>> {
  if (taken.length === 0) return { result: 0, events: noEvents };
  const events: EventDelivery[] = [];
  let settled = 0;
  for (const stored of taken) {
    const behaviour = sandbox.tokens.behaviourOf(stored.token);
    const before = stored.json;
    const payment = stored.payment;
    if (behaviour === undefined || !settlePendingPayment(payment, behaviour)) continue;
    const at = stored.settlesAt ?? accountNow;
    const { status, amount_captured } = payment;
    const step: TimelineStep = { at, change: 'settled', status, amount: amount_captured };
    // Claimed by this caller only: a refusal means the payment changed meanwhile (not pending).
    if (!(await account.transitionPayment(stored.id, before, payment, step))) continue;
    settled++;
    const event = prepareEvent(sandbox, account, payment, at);
    if (event !== undefined) await commitEvent(sandbox, payment, event, events);
  }
  return { result: settled, events };
}

/**
 * The payments operations of one key (spec: createPayment, retrievePayment, listPayments,
 * capturePayment, cancelPayment, createRefund) and the settlement of its pending payments.
 *
 * @example
 * const { result, events } = await service.payments.create({ amount: 1000, currency: 'KZT', payment_method: { type: 'token', token: 'tok_test_success' } });
 */
export class PaymentsFacet {
  constructor(private readonly scope: KeySession) {}

  /**
   * Whether a payment of the key may be due now, as the request's session read the account (no
   * store call; true when it cannot tell): false lets a request skip `settleDue`.
   */
  mayHaveDue(): boolean {
    const { session } = this.scope;
    const account = this.scope.account;
    // No session, or the key was reset since it read the account: settleDue reads it again.
    if (session === undefined || account !== session.account) return true;
    return account !== undefined && session.mayHaveDue(this.scope.now(account));
  }

  /**
   * Settles the key's pending payments that are due. With the request's session open, asks the
   * store only when one may be due as the account was read (a shared answer otherwise: no call).
   */
  settleDue(): Promise<Change<number>> {
    if (!this.mayHaveDue()) return NONE_SETTLED;
    const { session } = this.scope;
    const account = this.scope.account;
    if (session === undefined || account === undefined || account !== session.account) {
      return this.settleDueNow();
    }
    const accountNow = this.scope.now(account);
    return session
      .takeDueSettlements(accountNow)
      .then((taken) => settleTaken(this.scope.sandbox, account, accountNow, taken));
  }

  /** Settles what is due, reading the account (no session, or its account went). */
  private async settleDueNow(): Promise<Change<number>> {
    const account = await this.scope.find();
    if (account === undefined) return { result: 0, events: noEvents };
    return settleDuePayments(this.scope.sandbox, account, this.scope.now(account));
  }

  /**
   * Creates a payment; with `idempotency` (the request's in-flight Idempotency-Key record and
   * the account that holds it) its answer is stored in the same store call as the payment, in
   * that account (so a reset meanwhile takes both or neither). Everything that can fail (the
   * payment, its timestamp, its event) is built before that call; nothing after it can fail.
   */
  async create(
    request: Schemas['CreatePaymentRequest'],
    idempotency?: IdempotencyClaim,
  ): Promise<Change<payments.DomainResult<Payment>>> {
    const { sandbox } = this.scope;
    const existing = idempotency?.account ?? (await this.scope.find());
    const accountNow = this.scope.now(existing);
    const built = payments.buildPayment(
      sandbox.tokens,
      sandbox.settlementDelayMs,
      accountNow,
      request,
      sandbox.random,
    );
    if (!built.ok) return { result: built, events: noEvents };
    const { payment, settlesAt } = built.body;
    const account = existing ?? (await this.scope.open());
    const token = request.payment_method.token;
    const timeline: PackedTimeline = [accountNow, payment.status, payment.amount, null];
    // A seeded sandbox draws again the ids its store holds (restarted on them, or beside another
    // instance with the same seed): the store refuses such an id, changing nothing, and the
    // payment is made on a new one. The key holds at most `maxPaymentsPerKey` payments: a store
    // that refuses more ids than that is not telling the truth.
    for (let draws = 1; ; draws++) {
      const event = prepareEvent(sandbox, account, payment, accountNow);
      // Serialized once: the answer, its idempotency record, the inspector and the store share it.
      const json = JSON.stringify(payment);
      // Commit (or nothing, the id being held): once stored, nothing below throws.
      const stored = await account.createPayment(
        { id: payment.id, json, token, settlesAt, timeline },
        idempotency === undefined
          ? undefined
          : { record: idempotency.record, response: jsonResponse(201, json) },
      );
      if (stored !== undefined) {
        const events: EventDelivery[] = [];
        if (event !== undefined) await commitEvent(sandbox, payment, event, events);
        return { result: { ok: true, status: 201, body: payment, text: json }, events };
      }
      if (draws > sandbox.maxPaymentsPerKey) {
        throw new StoreUnavailableError(
          `the store refused ${draws} new payment ids in a row as already held`,
        );
      }
      payment.id = newPaymentId(sandbox.random);
    }
  }

  /**
   * One payment: as the request's session read it with the account (answered without an async
   * frame: this is every retrieve's path), else read now.
   */
  retrieve(id: string): Promise<payments.DomainResult<Payment>> {
    const read = this.retrieveAsRead(id);
    return read === undefined ? this.retrieveNow(id) : Promise.resolve(read);
  }

  /**
   * The payment `id` as the request's session read it with the account, answered at once;
   * undefined when the session did not read it (then `retrieve` reads it).
   */
  retrieveAsRead(id: string): payments.DomainResult<Payment> | undefined {
    const read = this.asRead(id);
    return read === undefined ? undefined : payments.retrievePayment(read.payment, id);
  }

  private async retrieveNow(id: string): Promise<payments.DomainResult<Payment>> {
    const account = await this.scope.find();
    return payments.retrievePayment(
      account === undefined ? undefined : await account.payment(id),
      id,
    );
  }

  /**
   * The payment `id` as the request's session read it, while its account is the one held (none
   * when the key held nothing: then no payment either).
   */
  private asRead(id: string): { payment: StoredPayment | undefined } | undefined {
    const { session } = this.scope;
    // Another account than the one read (a reset since) holds other payments.
    if (session === undefined || session.account !== this.scope.account) return undefined;
    return session.paymentAsRead(id);
  }

  async list(
    limit: number,
    startingAfter?: string,
  ): Promise<payments.DomainResult<Schemas['PaymentList']>> {
    const account = await this.scope.find();
    const page = account === undefined ? null : await account.listPayments(limit, startingAfter);
    return payments.listPayments(page, startingAfter);
  }

  capture(
    id: string,
    request: Schemas['CapturePaymentRequest'] | undefined,
    idempotency?: IdempotencyClaim,
  ): Promise<Change<payments.DomainResult<Payment>>> {
    return this.change(id, 'captured', idempotency, (draft) => {
      const result = capturePayment(draft, request?.amount);
      return result.ok
        ? { ok: true, status: 200, body: draft, amount: draft.amount_captured }
        : result;
    });
  }

  cancel(
    id: string,
    idempotency?: IdempotencyClaim,
  ): Promise<Change<payments.DomainResult<Payment>>> {
    return this.change(id, 'canceled', idempotency, (draft) => {
      const result = cancelPayment(draft);
      return result.ok ? { ok: true, status: 200, body: draft, amount: 0 } : result;
    });
  }

  refund(
    id: string,
    request: Schemas['CreateRefundRequest'] | undefined,
    idempotency?: IdempotencyClaim,
  ): Promise<Change<payments.DomainResult<Schemas['Refund']>>> {
    return this.change(id, 'refunded', idempotency, (draft, accountNow) => {
      const result = refundPayment(draft, request?.amount);
      if (!result.ok) return result;
      return {
        ok: true,
        status: 201,
        body: payments.refundObject(draft, result.value, accountNow, this.scope.sandbox.random),
        amount: result.value,
      };
    });
  }

  /**
   * Changes one payment all or nothing: the change is made on a draft parsed from the payment as
   * read, its answer and event are built from the draft, and only then does the store's
   * compare-and-set put it in place (refused if the payment changed since it was read: the
   * change is then made again on the new state), with the answer of the request's
   * Idempotency-Key when it has one (in the account holding that record: both or neither).
   */
  private async change<Body>(
    id: string,
    kind: TimelineStep['change'],
    idempotency: IdempotencyClaim | undefined,
    change: (draft: Payment, accountNow: number) => ChangedPayment<Body>,
  ): Promise<Change<payments.DomainResult<Body>>> {
    const account = idempotency?.account ?? (await this.scope.find());
    if (account === undefined) return { result: payments.paymentNotFound(id), events: noEvents };
    const accountNow = this.scope.now(account);
    for (let attempt = 1; ; attempt++) {
      // First as the session read it with the account, if it did: a change made since fails the
      // compare-and-set below, and the next attempt reads again.
      const ahead = attempt === 1 && account === this.scope.account ? this.asRead(id) : undefined;
      const stored = ahead === undefined ? await account.payment(id) : ahead.payment;
      if (stored === undefined) return { result: payments.paymentNotFound(id), events: noEvents };
      const before = stored.json;
      const draft: Payment = stored.payment;
      const statusBefore = draft.status;
      const result = change(draft, accountNow);
      if (!result.ok) return { result, events: noEvents };
      const event =
        draft.status === statusBefore
          ? undefined
          : prepareEvent(this.scope.sandbox, account, draft, accountNow);
      const step: TimelineStep = {
        at: accountNow,
        change: kind,
        status: draft.status,
        amount: result.amount,
      };
      const { amount: _amount, ...answer } = result;
      // Serialized once: the answer and its idempotency record share it.
      const text = JSON.stringify(answer.body);
      const completion =
        idempotency === undefined
          ? undefined
          : { record: idempotency.record, response: jsonResponse(answer.status, text) };
      // Commit: nothing below throws.
      if (await account.transitionPayment(id, before, draft, step, completion)) {
        const events: EventDelivery[] = [];
        if (event !== undefined) await commitEvent(this.scope.sandbox, draft, event, events);
        return { result: { ...answer, text }, events };
      }
      if (attempt === TRANSITION_ATTEMPTS) {
        const detail = `Payment ${id} kept changing while this request was processed; retry it.`;
        return {
          result: { ok: false, problem: { code: 'invalid_state', detail } },
          events: noEvents,
        };
      }
    }
  }
}
