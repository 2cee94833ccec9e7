// One precomposed pipeline per spec operation, built at start-up: auth, faults, body, validation, idempotency, handler, answer; observed once at the end.
import type { Context } from 'hono';
import type { AccountService, EventDelivery } from '../service/account-service.js';
import {
  checkIdempotencyKey,
  type IdempotencyClaim,
  type IdempotentRequest,
} from '../service/idempotency.js';
import { heldRequestsFull } from '../shared/faults.js';
import { isIdForm, MAX_ID_LENGTH } from '../shared/id-form.js';
import type { FieldError, ProblemInit } from '../shared/problems.js';
import type { Checked } from '../shared/validation.js';
import type { StoredResponse } from '../store/records.js';
import { authenticate } from './auth.js';
import { type BodyResult, readJsonBody } from './body.js';
import { callerOnThisMachine } from './caller.js';
import type { MockEnv } from './env.js';
import {
  answerProblem,
  answerWith,
  type Exchange,
  internalError,
  type Observer,
  observe,
  openExchange,
} from './exchange.js';
import type { PreparedHandler } from './operations.js';
import { invalidRequest, toStoredJson, toStoredProblem } from './respond.js';

/** What every operation's pipeline needs from the server. */
export interface PipelineContext {
  observer: Observer;
  /** The account service of an authenticated key. */
  serviceFor(apiKey: string): AccountService;
  maxBodyBytes: number;
  sleep(ms: number): Promise<void>;
  /** Hands events to the webhook dispatcher (queued once it resolves; never rejects). */
  deliver(events: readonly EventDelivery[]): Promise<void>;
  /** Writes the changes made so far to a durable store: the problem to answer if it cannot. */
  persist(): ProblemInit | undefined;
}

/** The shape of one operation, settled at start-up: which steps its pipeline has. */
export interface OperationShape {
  /**
   * A /v1 operation: the key's faults apply, due payments settle first, and a POST takes an
   * `Idempotency-Key` (the sandbox controls have none of these).
   */
  api: boolean;
  /** Whether the operation reads a body (the body read and its check). */
  readsBody: boolean;
  /**
   * Whether it answers without a key (the spec lists no security among its options): a request
   * without `Authorization` is served; a header sent is still checked.
   */
  keyless?: boolean;
  /** Whether its path has an `{id}`. */
  hasId: boolean;
  /** What that `{id}` names ('payment', 'webhook endpoint', 'event'), for the answer to an id of no possible form. */
  idNames?: string;
  /**
   * Whether that `{id}` names a payment the handler reads (/v1/payments/{id}…): a store that
   * reads ahead reads it with the account.
   */
  paymentId: boolean;
  /** POST: a new change, so the Idempotency-Key step and the store's capacity check. */
  post: boolean;
  /** Checks the parsed body and binds it to the operation's handler. */
  prepare(body: unknown): Checked<PreparedHandler>;
}

/** The account a keyless request is served as: not a well-formed key, so no client's. */
const KEYLESS_CALLER = 'sk_test_ keyless';

/** The Idempotency-Key record a request holds while its handler runs, and what it answered. */
interface Pending {
  request: IdempotentRequest;
  /** The in-flight record and the account that holds it. */
  claim: IdempotencyClaim;
  /** The handler's own answer (not a replay or a problem before it): what the record keeps. */
  stored: StoredResponse | undefined;
  /** Whether the record was completed (or given back) already. */
  finished: boolean;
}

/** A request's body and Idempotency-Key header, read and checked (`prepared` once the body read). */
interface RequestRead {
  /** The body as read (undefined: the operation reads none). */
  read: BodyResult | undefined;
  body: unknown;
  prepared: Checked<PreparedHandler> | undefined;
  keyError: FieldError | undefined;
}

/** A body that could not be read: nothing to check. */
function unreadable(read: BodyResult): RequestRead {
  return { read, body: undefined, prepared: undefined, keyError: undefined };
}

/** Injected latency of the key's `latency_ms` fault not yet spent, in ms. */
interface Latency {
  ms: number;
}

/**
 * Builds the one handler of an operation: authenticates the key, applies its faults (/v1), reads
 * and checks the body, takes the Idempotency-Key (/v1 POSTs), runs the operation and answers,
 * each step present only when the operation needs it; then observes the request once (log line,
 * inspector record, dropped connection) from what the pipeline holds. A throw anywhere is a 500
 * problem, and an Idempotency-Key taken is given back.
 *
 * @example
 * app.post('/v1/payments', operationPipeline({ api: true, readsBody: true, hasId: false, post: true, prepare }, context));
 */
export function operationPipeline(
  shape: OperationShape,
  context: PipelineContext,
): (c: Context<MockEnv>) => Promise<Response> {
  const { observer, serviceFor, maxBodyBytes, sleep, deliver, persist } = context;
  const takesKey = shape.api && shape.post;

  /** The handler and the answer, after any injected latency. */
  const run = async (
    c: Context<MockEnv>,
    exchange: Exchange,
    service: AccountService,
    handler: PreparedHandler,
    latency: Latency | undefined,
    pending: Pending | undefined,
  ): Promise<Response> => {
    if (latency !== undefined && latency.ms > 0) {
      const ms = latency.ms;
      latency.ms = 0;
      await sleep(ms);
      service.waited();
    }
    if (shape.api) {
      // Every /v1 request settles what is due first (the store is asked only when one may be).
      const { events } = await service.payments.settleDue();
      if (events.length > 0) await deliver(events);
    }
    if (pending?.claim.account.closed === true) {
      // The key was reset while this request waited: its record went with the old account, so
      // take the key again on the new one. (The operation changes the account that holds the
      // record, so a reset after this takes both or neither: no payment without its record.)
      const decision = await service.idempotency.begin(pending.request);
      if (decision.kind === 'problem') return answerProblem(exchange, decision.problem);
      if (decision.kind === 'replay') return answerWith(exchange, decision.response, true);
      pending.claim = decision;
    }
    const url = c.req.url;
    const answering = handler({
      service,
      idempotency: pending?.claim,
      id: shape.hasId ? (c.req.param('id') ?? '') : '',
      // Parsed only when a handler reads it (the list operations).
      get query() {
        const queryStart = url.indexOf('?');
        return new URLSearchParams(queryStart === -1 ? '' : url.slice(queryStart + 1));
      },
      get callerOnThisMachine() {
        return callerOnThisMachine(c.env);
      },
    });
    const answer = answering instanceof Promise ? await answering : answering;
    if (answer.events !== undefined) await deliver(answer.events);
    // A record the operation completed with its change (in the same store call: both or
    // neither) holds the answer already; an answer that changed nothing is stored here.
    const stored =
      pending?.claim.record.response ??
      ('problem' in answer
        ? toStoredProblem(answer.problem, exchange.requestId)
        : toStoredJson(answer.status, answer.body, answer.text));
    if (pending !== undefined) {
      pending.stored = stored;
      pending.finished = true;
      await service.idempotency.finish(pending.claim, stored.status !== 400 ? stored : undefined);
    }
    return answerWith(exchange, stored);
  };

  /** Idempotency-Key replay and record (/v1 POSTs), around the handler. */
  const withKey = async (
    c: Context<MockEnv>,
    exchange: Exchange,
    service: AccountService,
    handler: PreparedHandler,
    latency: Latency | undefined,
    body: unknown,
  ): Promise<Response> => {
    const key = c.req.header('idempotency-key');
    let pending: Pending | undefined;
    if (key === undefined) {
      const full = await service.checkCapacity();
      if (full !== undefined) return answerProblem(exchange, full);
    } else {
      const request: IdempotentRequest = {
        key,
        method: exchange.method,
        path: exchange.path,
        bodyText: exchange.bodyText,
        body,
      };
      const decision = await service.idempotency.begin(request);
      if (decision.kind === 'problem') return answerProblem(exchange, decision.problem);
      if (decision.kind === 'replay') {
        exchange.drop = await takeDrop(service);
        return answerWith(exchange, decision.response, true);
      }
      let full: ProblemInit | undefined;
      try {
        full = await service.checkCapacity();
      } catch (error) {
        await giveBack(service, decision);
        throw error;
      }
      if (full !== undefined) {
        // Nothing was done: the key is free again for the retry that Retry-After invites.
        await giveBack(service, decision);
        return answerProblem(exchange, full);
      }
      pending = { request, claim: decision, stored: undefined, finished: false };
    }
    let failed = true;
    try {
      const response = await run(c, exchange, service, handler, latency, pending);
      failed = false;
      return response;
    } finally {
      // What follows a change never throws: a store that fails here costs the drop fault or the
      // account's release, never the answer.
      if (pending !== undefined && !pending.finished) {
        // The handler threw, or never ran: the key is free again.
        await giveBack(service, pending.claim);
      }
      if (!failed) exchange.drop = await takeDrop(service);
      try {
        await service.release();
      } catch {
        // Released on a later request of the key.
      }
    }
  };

  /** Checks the body as read and the Idempotency-Key header (no answer yet). */
  const checkRequest = (
    c: Context<MockEnv>,
    read: BodyResult | undefined,
    body: unknown,
  ): RequestRead => {
    const prepared = shape.prepare(body);
    const keyError = takesKey
      ? checkIdempotencyKey(c.req.header('idempotency-key') ?? null)
      : undefined;
    return { read, body, prepared, keyError };
  };

  /** Reads and checks the body and the Idempotency-Key header. */
  const readRequest = async (c: Context<MockEnv>): Promise<RequestRead> => {
    if (!shape.readsBody) return checkRequest(c, undefined, undefined);
    const read = await readJsonBody(c.req.raw, maxBodyBytes);
    return read.ok ? checkRequest(c, read, read.body) : unreadable(read);
  };

  /**
   * Body, validation, idempotency and the handler: what follows the key's faults. `early` is the
   * request as read before the faults (when the store reads ahead), else it is read here.
   */
  const afterFaults = async (
    c: Context<MockEnv>,
    exchange: Exchange,
    service: AccountService,
    latency: Latency | undefined,
    early?: RequestRead,
  ): Promise<Response> => {
    let request = early;
    if (request === undefined) {
      // No promise for an operation without a body (the memory store's hot reads).
      if (shape.readsBody) {
        const bodyRead = await readJsonBody(c.req.raw, maxBodyBytes);
        request = bodyRead.ok ? checkRequest(c, bodyRead, bodyRead.body) : unreadable(bodyRead);
      } else {
        request = checkRequest(c, undefined, undefined);
      }
    }
    const { read, body, prepared, keyError } = request;
    if (read !== undefined) {
      exchange.bodyText = read.text;
      if (!read.ok) {
        if (read.aborted === true) exchange.aborted = true;
        return answerProblem(exchange, read.problem);
      }
    }
    if (prepared === undefined) throw new Error('unreachable: a body read is checked');
    if (!prepared.ok || keyError !== undefined) {
      // Every problem at once, the Idempotency-Key header's first.
      const errors = prepared.ok ? [] : [...prepared.errors];
      if (keyError !== undefined) errors.unshift(keyError);
      return answerProblem(exchange, invalidRequest(errors));
    }
    if (takesKey) return withKey(c, exchange, service, prepared.value, latency, body);
    return run(c, exchange, service, prepared.value, latency, undefined);
  };

  /**
   * Opens the request's store session before the faults, asking in one go what the request's
   * steps will ask of the store: a valid POST opens the account, claims its Idempotency-Key
   * (only if no fault is armed) and asks for room; a payment's path reads the payment; any other
   * finds the account. The body is read first (a POST), kept for `afterFaults`: the faults still
   * answer before its problems.
   */
  const readAhead = async (
    c: Context<MockEnv>,
    exchange: Exchange,
    service: AccountService,
  ): Promise<RequestRead | undefined> => {
    const paymentId = shape.paymentId ? (c.req.param('id') ?? '') : undefined;
    if (!shape.post) {
      await service.readAhead(false, undefined, paymentId);
      return undefined;
    }
    const early = await readRequest(c);
    if (early.prepared?.ok !== true || early.keyError !== undefined) {
      await service.readAhead(false, undefined, paymentId);
      return early;
    }
    const key = takesKey ? c.req.header('idempotency-key') : undefined;
    const request: IdempotentRequest | undefined =
      key === undefined
        ? undefined
        : {
            key,
            method: exchange.method,
            path: exchange.path,
            bodyText: early.read?.text,
            body: early.body,
          };
    await service.readAhead(true, request, paymentId);
    return early;
  };

  /** Auth, then the key's faults (/v1): `fail_next` answers at once, `latency_ms` is held. */
  const serve = async (c: Context<MockEnv>, exchange: Exchange): Promise<Response> => {
    const header = c.req.header('authorization');
    if (header === undefined && shape.keyless === true) {
      // No key's data is read: the service of a key no client can send (it is not well formed).
      exchange.service = serviceFor(KEYLESS_CALLER);
      return afterFaults(c, exchange, exchange.service, undefined);
    }
    const auth = authenticate(header);
    if (!auth.ok) return answerProblem(exchange, auth.problem);
    if (shape.hasId && !isIdForm(c.req.param('id') ?? '')) {
      // Not an id of any store: answered the same whatever the store, and never sent to one.
      return answerProblem(exchange, {
        code: 'not_found',
        detail: `No ${shape.idNames ?? 'object'} has this id: an id is 1 to ${MAX_ID_LENGTH} characters, none of them a control character.`,
      });
    }
    const service = serviceFor(auth.apiKey);
    exchange.service = service;
    if (!shape.api) return afterFaults(c, exchange, service, undefined);
    const early = await readAhead(c, exchange, service);
    // As the session read the faults with the account.
    const latencyMs = service.faults.latencyMs();
    if (latencyMs === 0) {
      const failure = await service.faults.takeFailure();
      if (failure !== undefined) return answerProblem(exchange, failure);
      return afterFaults(c, exchange, service, undefined, early);
    }
    const release = service.faults.holdRequest();
    if (release === undefined) return answerProblem(exchange, heldRequestsFull(latencyMs));
    try {
      const failure = await service.faults.takeFailure();
      if (failure !== undefined) {
        await sleep(latencyMs);
        return answerProblem(exchange, failure);
      }
      const latency: Latency = { ms: latencyMs };
      let response: Response;
      try {
        response = await afterFaults(c, exchange, service, latency, early);
      } catch (error) {
        response = internalError(exchange, error);
      }
      // What the handler did not spend (an answer made before it, such as a 400).
      if (latency.ms > 0) await sleep(latency.ms);
      return response;
    } finally {
      release();
    }
  };

  return async (c) => {
    const exchange = openExchange(c, observer.clock);
    let response: Response;
    try {
      response = await serve(c, exchange);
    } catch (error) {
      response = internalError(exchange, error);
    }
    // A key claimed ahead and never taken (the request ended before its key step) is free again.
    const unused = exchange.service?.giveBackUnusedClaim();
    if (unused !== undefined) await unused;
    // Nothing is answered before what it changed is stored.
    const unstored = persist();
    if (unstored !== undefined) response = answerProblem(exchange, unstored);
    observe(c, exchange, observer, response.status);
    return response;
  };
}

/** Gives an in-flight Idempotency-Key back (nothing was done); a store failure keeps it until it expires. */
async function giveBack(service: AccountService, claim: IdempotencyClaim): Promise<void> {
  try {
    await service.idempotency.finish(claim, undefined);
  } catch {
    // The record stays in flight (a retry gets 409) until it expires.
  }
}

/** Consumes one armed `drop_after_commit` after an answer; false when the store cannot say. */
async function takeDrop(service: AccountService): Promise<boolean> {
  try {
    return await service.faults.takeDrop();
  } catch {
    return false;
  }
}
