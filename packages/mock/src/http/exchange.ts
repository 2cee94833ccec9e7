// One request as the mock handles it, and its observation at the end: the log line, the inspector's record, a dropped connection.
import type { Context, Next } from 'hono';
import { newRequestId } from '../shared/ids.js';
import type { ProblemInit } from '../shared/problems.js';
import { maskEscapedSecrets } from '../shared/secrets.js';
import { formatLogTime } from '../shared/time.js';
import type { StoredResponse } from '../store/records.js';
import { clip, copyOf } from '../store/request-records.js';
import { StoreUnavailableError } from '../store/store.js';
import type { Exchange, MockEnv } from './env.js';

export type { Exchange } from './env.js';

import { toResponse, toStoredProblem } from './respond.js';

/** What observing a request needs from the server: where log lines go and the clock. */
export interface Observer {
  /** Receives one line per request; undefined: no log. */
  logger: ((line: string) => void) | undefined;
  /** The server's clock (the inspector stamps each request on the key's clock from it). */
  clock: { now(): number };
}

/**
 * The path of an absolute URL, as sent (not decoded), without query or fragment.
 *
 * @example
 * pathOf('http://localhost/v1/payments?limit=5'); // '/v1/payments'
 */
export function pathOf(url: string): string {
  const authorityStart = url.indexOf('//');
  const pathStart = url.indexOf('/', authorityStart === -1 ? 0 : authorityStart + 2);
  if (pathStart === -1) return '/';
  let end = url.length;
  const query = url.indexOf('?', pathStart);
  if (query !== -1) end = query;
  const fragment = url.indexOf('#', pathStart);
  if (fragment !== -1 && fragment < end) end = fragment;
  const path = url.slice(pathStart, end);
  // A slice keeps its whole URL alive: a path kept by a record (the inspector's, an
  // Idempotency-Key's) would hold a long query or host that no byte budget counts.
  return url.length - path.length > SHARED_URL_CHARS ? copyOf(path) : path;
}

/** URL characters beyond the path a kept path may hold alive (covered by each record's fixed bytes). */
const SHARED_URL_CHARS = 64;

/**
 * Opens the exchange of a request: a fresh `Request-Id`, the method, the path, the arrival time.
 *
 * @example
 * const exchange = openExchange(c, observer.clock);
 */
export function openExchange(c: Context<MockEnv>, clock: { now(): number }): Exchange {
  return {
    requestId: newRequestId(),
    method: c.req.method,
    path: pathOf(c.req.url),
    receivedAt: clockTime(clock),
    started: performance.now(),
    service: undefined,
    bodyText: undefined,
    answer: undefined,
    drop: false,
    aborted: false,
  };
}

/**
 * The clock's time, or undefined when it fails (the request still gets its 500 answer).
 *
 * @example
 * clockTime({ now: () => 1_700_000_000_000 }); // 1700000000000
 */
export function clockTime(clock: { now(): number }): number | undefined {
  try {
    return clock.now();
  } catch {
    return undefined;
  }
}

/**
 * Answers with a stored response (a replay also gets `Idempotent-Replayed: true`), keeping it in
 * the exchange for the log, the inspector and the idempotency record.
 *
 * @example
 * return answerWith(exchange, toStoredJson(201, payment));
 */
export function answerWith(exchange: Exchange, stored: StoredResponse, replayed = false): Response {
  exchange.answer = stored;
  return toResponse(stored, exchange.requestId, replayed);
}

/**
 * Answers with a problem+json response carrying the exchange's `Request-Id`.
 *
 * @example
 * return answerProblem(exchange, { code: 'not_found', detail: 'No such path.' });
 */
export function answerProblem(exchange: Exchange, init: ProblemInit): Response {
  return answerWith(exchange, toStoredProblem(init, exchange.requestId));
}

/**
 * The answer to a request the mock failed on: `503 store_unavailable` with `Retry-After` when its
 * store (Valkey/Redis) could not be reached or did not answer in time (each change is one store
 * call, so nothing is half-written), else a 500 problem; both safe to retry.
 *
 * @example
 * try { response = await serve(c, exchange); } catch (error) { response = internalError(exchange, error); }
 */
export function internalError(exchange: Exchange, error?: unknown): Response {
  if (error instanceof StoreUnavailableError) {
    return answerProblem(exchange, {
      code: 'store_unavailable',
      detail:
        'The sandbox cannot reach its store (Valkey/Redis) now; nothing of this request was half-written. Retry later with the same Idempotency-Key.',
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    });
  }
  return answerProblem(exchange, {
    code: 'internal_error',
    detail: 'The sandbox failed unexpectedly. Retrying with the same Idempotency-Key is safe.',
  });
}

/**
 * Observes a finished request, once, from what its exchange holds: one log line (time, method,
 * path with secrets masked, status or `aborted`/`dropped`, problem `code`, duration, request
 * id); the inspector's record for an authenticated key (not `GET /_sandbox/…` reads; bodies cut
 * at 4 096 characters; never fails the request: stored at once by the memory store, sent without
 * holding the answer by an asynchronous one, see `SandboxState.pendingRecords`); and the dropped
 * connection of a `drop_after_commit` fault. Never throws.
 *
 * @example
 * try { return await handle(exchange); } finally { observe(c, exchange, observer, response.status); }
 */
export function observe(
  c: Context<MockEnv>,
  exchange: Exchange,
  observer: Observer,
  status: number,
): void {
  const { logger } = observer;
  const elapsed = performance.now() - exchange.started;
  const answer = exchange.answer;
  const code = exchange.aborted ? undefined : answer?.code;
  if (logger !== undefined) {
    const shown = exchange.aborted ? 'aborted' : exchange.drop ? 'dropped' : String(status);
    try {
      logger(
        `${formatLogTime(Date.now())} ${exchange.method} ${maskEscapedSecrets(exchange.path)} ${shown}${code === undefined ? '' : ` ${code}`} ${Math.round(elapsed)}ms ${exchange.requestId}`,
      );
    } catch {
      // A log line is a view, as the inspector's record is: the answer (and what it changed)
      // stands, its record is kept, its drop fault still taken.
    }
  }
  const { service, receivedAt } = exchange;
  const read = exchange.method === 'GET' && exchange.path.includes('/_sandbox/');
  if (service !== undefined && receivedAt !== undefined && !read) {
    try {
      const dropped = exchange.drop || exchange.aborted;
      const request = clip(exchange.bodyText ?? null);
      const response = clip(dropped ? null : (answer?.body ?? null));
      service.inspector.recordRequest(
        {
          requestId: exchange.requestId,
          method: exchange.method,
          path: exchange.path,
          status: dropped ? null : status,
          code: dropped ? null : (code ?? null),
          latencyMs: Math.max(0, Math.round(elapsed)),
          requestBody: request.text,
          responseBody: response.text,
          truncated: request.truncated || response.truncated,
        },
        receivedAt,
      );
    } catch {
      // The inspector is a view: a request is never failed because it could not be recorded.
    }
  }
  // Recorded at once by the memory store; an asynchronous store's record is sent without
  // holding the answer (the inspector waits for this server's records before it reads).
  if (exchange.drop) dropConnection(c.env);
}

/** A handler of a route outside the spec's operations (the console, 404, 405). */
export type ObservedHandler = (
  c: Context<MockEnv>,
  exchange: Exchange,
  next: Next,
) => Response | undefined | Promise<Response | undefined>;

/**
 * Wraps a route outside the spec's operations so it is observed like them: a `Request-Id`, one
 * log line, a 500 problem if it throws. A route reached through another's `next()` shares the
 * first one's exchange (one request, one line).
 *
 * @example
 * app.notFound(observed(observer, (c, exchange) => answerProblem(exchange, notFoundProblem)));
 */
export function observed(
  observer: Observer,
  handler: ObservedHandler,
): (c: Context<MockEnv>, next?: Next) => Promise<Response> {
  return async (c, next = noNext) => {
    const outer = c.get('exchange');
    if (outer !== undefined) return (await handler(c, outer, next)) ?? c.res;
    const exchange = openExchange(c, observer.clock);
    c.set('exchange', exchange);
    c.set('requestId', exchange.requestId);
    let response: Response;
    try {
      response = (await handler(c, exchange, next)) ?? c.res;
    } catch (error) {
      response = internalError(exchange, error);
    }
    observe(c, exchange, observer, response.status);
    return response;
  };
}

/** The `next` of a handler with nothing after it (the not-found handler). */
const noNext: Next = async () => {};

/** What @hono/node-server or the in-process `fetch` pass as the app's environment. */
function dropConnection(env: unknown): void {
  if (typeof env !== 'object' || env === null) return;
  if ('inProcess' in env && 'dropped' in env) {
    Reflect.set(env, 'dropped', true);
    return;
  }
  const incoming: unknown = Reflect.get(env, 'incoming');
  if (typeof incoming !== 'object' || incoming === null) return;
  const socket: unknown = Reflect.get(incoming, 'socket');
  if (typeof socket === 'object' && socket !== null && 'destroy' in socket) {
    const destroy: unknown = socket.destroy;
    if (typeof destroy === 'function') destroy.call(socket);
  }
}
