// The typed per-request state every step of an operation reads and fills in, and the shape of a step.
import type { Context } from 'hono';
import type { AccountService } from '../../service/account-service.js';
import type { IdempotencyClaim, IdempotentRequest } from '../../service/idempotency.js';
import { newRequestId } from '../../shared/ids.js';
import type { FieldError } from '../../shared/problems.js';
import type { Checked } from '../../shared/validation.js';
import type { StoredResponse } from '../../store/records.js';
import type { BodyResult } from '../body.js';
import type { Exchange, MockEnv } from '../env.js';
import { clockTime, pathOf } from '../exchange.js';
import type { PreparedAnswer, PreparedHandler } from '../operations.js';

/**
 * One request while its operation's steps answer it: the exchange `observe` reads at the end,
 * and what each step leaves for the steps after it. One object per request, its fields all set
 * here (one hidden class), rather than Hono's `c.set`/`c.get` variables: those cost a `Map` per
 * request and a lookup per read (`c.var` copies them all into a new object on every read).
 *
 * @example
 * const request = new RequestState(c, observer.clock);
 * request.requestId; // 'req_…'
 */
export class RequestState implements Exchange {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly receivedAt: number | undefined;
  readonly started: number;
  /** The caller's account service, once the key is known (`openAccount`). */
  service: AccountService | undefined = undefined;
  /** The request body's text as answered on (set by `refuseInvalid`, for the inspector). */
  bodyText: string | undefined = undefined;
  answer: StoredResponse | undefined = undefined;
  drop = false;
  aborted = false;
  /** The authenticated key (`authenticateKey`): the account the request is served as. */
  apiKey = '';
  /** The body as read (`readBody`); undefined when the operation reads none. */
  read: BodyResult | undefined = undefined;
  /** The body checked and bound to the handler (`validateRequest`); undefined: not checked (unreadable). */
  prepared: Checked<PreparedHandler> | undefined = undefined;
  /** The `Idempotency-Key` header (`validateRequest`, /v1 POSTs); undefined when not sent. */
  idempotencyKey: string | undefined = undefined;
  /** What is wrong with that header, if anything. */
  keyError: FieldError | undefined = undefined;
  /** The request as the Idempotency-Key record sees it, built once (`idempotentRequest`). */
  keyRequest: IdempotentRequest | undefined = undefined;
  /** The in-flight Idempotency-Key record this request holds while its operation runs. */
  claim: IdempotencyClaim | undefined = undefined;
  /** Whether that record was completed (or given back) already. */
  claimFinished = false;
  /** Injected latency (the key's `latency_ms` fault) not yet spent, in ms. */
  latencyMs = 0;

  constructor(c: Context<MockEnv>, clock: { now(): number }) {
    this.requestId = newRequestId();
    this.method = c.req.method;
    this.path = pathOf(c.req.url);
    this.receivedAt = clockTime(clock);
    this.started = performance.now();
  }

  /**
   * The account service `openAccount` opened: a step after it reads it here (a throw, so a 500,
   * means the pipeline was composed without `openAccount`).
   *
   * @example
   * const faults = request.account().faults;
   */
  account(): AccountService {
    if (this.service === undefined) throw new Error('unreachable: the account is open');
    return this.service;
  }
}

/**
 * One named step of an operation: does its one part of the request, then answers or hands the
 * request to the step after it (bound when the pipeline is composed, at start-up).
 */
export type Step = (c: Context<MockEnv>, request: RequestState) => Answering;

/**
 * A step's answer: the Response, or the promise of one. The memory store answers a request in
 * its own tick, so a request it serves without waiting on anything else (a retrieve) is answered
 * at once; a networked store answers after its round trip.
 */
export type Answering = Response | Promise<Response>;

/** A step with its configuration bound, waiting for the step after it. */
export type StepFactory = (next: Step) => Step;

/**
 * Composes steps once, at start-up: the first runs first and each hands on to the next, the last
 * being `last`. `false` leaves a step out (an operation without it), so the list reads as the
 * order the steps run in. Nothing is built per request.
 *
 * @example
 * const run = composeSteps([authenticateKey(false), shape.hasId && checkPathId('payment')], operate);
 */
export function composeSteps(steps: readonly (StepFactory | false)[], last: Step): Step {
  let next = last;
  for (let index = steps.length - 1; index >= 0; index--) {
    const step = steps[index];
    if (step !== false && step !== undefined) next = step(next);
  }
  return next;
}

/** What a step does with the answer of the steps after it (bound when the pipeline is composed). */
export type AfterAnswer = (
  c: Context<MockEnv>,
  request: RequestState,
  response: Response,
) => Answering;

/** What a step does when the steps after it throw or reject (bound when the pipeline is composed). */
export type AfterFailure = (
  c: Context<MockEnv>,
  request: RequestState,
  error: unknown,
) => Answering;

/**
 * Runs `next` on the request and hands its answer to `answered`, or its throw (or rejection) to
 * `failed`: in the same tick when `next` answered at once, else when its promise settles. The one
 * place a step's answer is told apart from a promise of one (Hono's own dispatch does the same
 * with a handler's answer).
 *
 * @example
 * return (c, request) => afterSteps(next, c, request, observedAnswer, observedFailure);
 */
export function afterSteps(
  next: Step,
  c: Context<MockEnv>,
  request: RequestState,
  answered: AfterAnswer,
  failed: AfterFailure,
): Answering {
  let answering: Answering;
  try {
    answering = next(c, request);
  } catch (error) {
    return failed(c, request, error);
  }
  if (answering instanceof Promise) {
    return answering.then(
      (response) => answered(c, request, response),
      (error: unknown) => failed(c, request, error),
    );
  }
  return answered(c, request, answering);
}

/**
 * Hands a handler's answer to `then`: at once when the handler answered at once (its session
 * read what it needed), else when its promise resolves.
 *
 * @example
 * return afterHandler(prepared.value(service, claim, id, c), (answer) => deliverThenAnswer(request, answer, deliver));
 */
export function afterHandler(
  answering: PreparedAnswer | Promise<PreparedAnswer>,
  then: (answer: PreparedAnswer) => Answering,
): Answering {
  return answering instanceof Promise ? answering.then(then) : then(answering);
}
