// The types that tie routes to the spec: operation ids, request bodies, success bodies, handlers.

import type { Context } from 'hono';
import type { AccountService, EventDelivery } from '../service/account-service.js';
import type { IdempotencyClaim } from '../service/idempotency.js';
import type { ProblemInit } from '../shared/problems.js';
import type { Checked } from '../shared/validation.js';
import type { MockEnv } from './env.js';

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace';

/** Every operation object a `paths` type holds (absent methods are `never`). */
type PathOperations<Paths> = {
  [Path in keyof Paths]: Paths[Path][Extract<keyof Paths[Path], HttpMethod>];
}[keyof Paths];

/**
 * The operationIds of `Operations` that some path serves (webhook operations are left out).
 *
 * @example
 * type Id = OperationId<operations, paths>; // 'createPayment' | 'listPayments' | …
 */
export type OperationId<Operations, Paths> = {
  [Id in keyof Operations]: Operations[Id] extends PathOperations<Paths> ? Id : never;
}[keyof Operations];

/** The statuses counted as success: concrete 2xx codes or the `2XX` range. */
type SuccessStatus = 200 | 201 | 202 | 203 | 204 | '200' | '201' | '202' | '203' | '204' | '2XX';

/**
 * The JSON body of an operation's success answer, whichever 2xx key the spec declares.
 *
 * @example
 * type Created = SuccessBody<operations['createPayment']>; // components['schemas']['Payment']
 */
export type SuccessBody<Operation> = Operation extends { responses: infer Responses }
  ? {
      [Status in Extract<keyof Responses, SuccessStatus>]: Responses[Status] extends {
        content: { 'application/json': infer Body };
      }
        ? Body
        : never;
    }[Extract<keyof Responses, SuccessStatus>]
  : never;

/**
 * The JSON request body of an operation: its generated type, `| undefined` when optional, and
 * `undefined` when it takes none.
 *
 * @example
 * type Body = RequestBody<operations['capturePayment']>; // CapturePaymentRequest | undefined
 */
export type RequestBody<Operation> = Operation extends { requestBody?: never }
  ? undefined
  : Operation extends { requestBody: { content: { 'application/json': infer Body } } }
    ? Body
    : Operation extends { requestBody?: { content: { 'application/json': infer Body } } }
      ? Body | undefined
      : undefined;

/** What a handler is given: the key's account service, the `{id}` path parameter, the checked body. */
export interface HandlerInput<Body> {
  service: AccountService;
  /**
   * The request's in-flight Idempotency-Key record and the account holding it (/v1 POSTs sent
   * with the header): an operation that changes something stores its answer in the same store
   * call as its change (a create, a capture, a cancel, a refund); the pipeline completes it
   * otherwise.
   */
  idempotency: IdempotencyClaim | undefined;
  /** The `{id}` path parameter, decoded; empty when the path has none. */
  id: string;
  body: Body;
  /** The request's query parameters. */
  query: URLSearchParams;
  /**
   * Whether the caller is on the sandbox's machine: in process, or connected from a loopback
   * address. What a receiver answered is shown only to such callers.
   */
  callerOnThisMachine: boolean;
}

/**
 * What a handler answers: the success status and body (checked against the spec at compile
 * time) or a problem; with the events the operation caused, for the webhook dispatcher. `text`,
 * when given, is `body`'s JSON already (a stored payment's cached text): it is sent as it is.
 */
export type Answer<Operation> = (
  | { status: number; body: SuccessBody<Operation>; text?: string }
  | { problem: ProblemInit }
) & { events?: readonly EventDelivery[] };

/** The handler of one spec operation (it awaits the store). */
export type Handler<Operation> = (
  input: HandlerInput<RequestBody<Operation>>,
) => Answer<Operation> | Promise<Answer<Operation>>;

/** Reads and checks an operation's request body, narrowing it to the generated type. */
export interface BodyCheck<Body> {
  /** Whether the operation takes a body (false: the body is not read). */
  readsBody: boolean;
  check(body: unknown): Checked<Body>;
}

/** One operation's route: its body check and its handler. */
export interface Route<Operation> {
  body: BodyCheck<RequestBody<Operation>>;
  handle: Handler<Operation>;
}

/**
 * One route per operation that a path serves: a missing one is a compile error naming it.
 *
 * @example
 * const routes = { createPayment: { body: …, handle: … }, … } satisfies RouteTable<operations, paths>;
 */
export type RouteTable<Operations, Paths> = {
  [Id in OperationId<Operations, Paths>]: Route<Operations[Id]>;
};

/** The answer of a prepared handler, with its body already checked. */
export type PreparedAnswer = (
  | { status: number; body: unknown; text?: string }
  | { problem: ProblemInit }
) & {
  events?: readonly EventDelivery[];
};

/**
 * A handler with its checked body bound, ready to run on the request's account service, its
 * Idempotency-Key claim, the path's `{id}` and the request (for its query and its caller).
 */
export type PreparedHandler = (
  service: AccountService,
  idempotency: IdempotencyClaim | undefined,
  id: string,
  c: Context<MockEnv>,
) => PreparedAnswer | Promise<PreparedAnswer>;
