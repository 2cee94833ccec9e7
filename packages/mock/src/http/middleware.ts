// The mock's Hono middleware, in contract order: request id, log, auth, faults, body, validation, idempotency, handler.
import type { MiddlewareHandler } from 'hono';
import type { AccountService, EventDelivery } from '../service/account-service.js';
import { checkIdempotencyKey } from '../service/idempotency.js';
import { heldRequestsFull } from '../shared/faults.js';
import { newRequestId } from '../shared/ids.js';
import { extend } from '../shared/objects.js';
import { maskSecrets } from '../shared/secrets.js';
import { formatLogTime } from '../shared/time.js';
import { clip } from '../store/request-log.js';
import { authenticate } from './auth.js';
import { readJsonBody } from './body.js';
import type { MockEnv } from './env.js';
import { invalidRequest, problem, reply, toStoredJson, toStoredProblem } from './respond.js';

/**
 * Gives each request a `req_…` id (sent back as `Request-Id` by every answer) and drops the
 * connection afterwards when a `drop_after_commit` fault says so.
 *
 * @example
 * app.use(requestId());
 */
export function requestId(): MiddlewareHandler<MockEnv> {
  return async (c, next) => {
    c.set('requestId', newRequestId());
    c.set('latencyMs', 0);
    c.set('drop', false);
    c.set('aborted', false);
    await next();
    if (c.get('drop')) dropConnection(c.env);
  };
}

/**
 * Logs one line per request: time, method, path (secrets masked), status, the problem `code` of
 * a 4xx/5xx, duration, request id.
 *
 * @example
 * app.use(requestLog((line) => console.log(line)));
 * // 2026-11-22T04:20:00.000Z POST /v1/payments 400 invalid_request 1ms req_…
 */
export function requestLog(logger: (line: string) => void): MiddlewareHandler<MockEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.get('aborted') ? 'aborted' : c.get('drop') ? 'dropped' : String(c.res.status);
    const code = c.get('aborted') ? undefined : c.get('answerCode');
    const elapsed = Math.round(performance.now() - started);
    logger(
      `${formatLogTime(Date.now())} ${c.req.method} ${maskSecrets(pathOf(c.req.url))} ${status}${code === undefined ? '' : ` ${code}`} ${elapsed}ms ${c.get('requestId')}`,
    );
  };
}

/**
 * Records each request of an authenticated key for the console's inspector: method, path,
 * status, problem `code`, `Request-Id`, latency and both bodies (cut at 4 096 characters; masked
 * when read). `GET /_sandbox/…` reads are not recorded. Never fails the request.
 *
 * @example
 * app.use('/v1/*', authentication(serviceFor), requestRecorder(clock));
 */
export function requestRecorder(clock: { now(): number }): MiddlewareHandler<MockEnv> {
  return async (c, next) => {
    const receivedAt = clock.now();
    const started = performance.now();
    await next();
    const method = c.req.method;
    const path = pathOf(c.req.url);
    if (method === 'GET' && path.includes('/_sandbox/')) return;
    try {
      const dropped = c.get('drop') || c.get('aborted');
      // The text and code the mock answered with: every answer on these paths is made by
      // `reply`, so nothing copies or parses the Response to find them.
      const answer = c.get('answerText') ?? null;
      const request = clip(c.get('bodyText') ?? null);
      const response = clip(dropped ? null : answer);
      c.get('service').recordRequest(
        {
          requestId: c.get('requestId'),
          method,
          path,
          status: dropped ? null : c.res.status,
          code: dropped ? null : (c.get('answerCode') ?? null),
          latencyMs: Math.max(0, Math.round(performance.now() - started)),
          requestBody: request.text,
          responseBody: response.text,
          truncated: request.truncated || response.truncated,
        },
        receivedAt,
      );
    } catch {
      // The inspector is a view: a request is never failed because it could not be recorded.
    }
  };
}

/**
 * Authenticates the `sk_test_` key (401 with `WWW-Authenticate` otherwise) and opens its account
 * service.
 *
 * @example
 * app.use('/v1/*', authentication((apiKey) => new AccountService(sandbox, apiKey)));
 */
export function authentication(
  serviceFor: (apiKey: string) => AccountService,
): MiddlewareHandler<MockEnv> {
  return async (c, next) => {
    const auth = authenticate(c.req.header('authorization'));
    if (!auth.ok) return problem(c, auth.problem);
    c.set('service', serviceFor(auth.apiKey));
    await next();
  };
}

/**
 * Applies the key's injected faults: `fail_next` answers at once (changing nothing), and
 * `latency_ms` is spent before the answer (by the handler step when it gets there).
 *
 * @example
 * app.use('/v1/*', injectedFaults(sleep));
 */
export function injectedFaults(sleep: (ms: number) => Promise<void>): MiddlewareHandler<MockEnv> {
  return async (c, next) => {
    const service = c.get('service');
    const latencyMs = service.latencyMs();
    if (latencyMs === 0) {
      const failure = service.takeFailure();
      if (failure !== undefined) return problem(c, failure);
      return next();
    }
    const release = service.holdRequest();
    if (release === undefined) return problem(c, heldRequestsFull(latencyMs));
    try {
      c.set('latencyMs', latencyMs);
      const failure = service.takeFailure();
      if (failure !== undefined) {
        await sleep(latencyMs);
        return problem(c, failure);
      }
      await next();
      // What the handler step did not spend (an answer made before it, such as a 400).
      const latency = c.get('latencyMs');
      if (latency > 0) await sleep(latency);
    } finally {
      release();
    }
  };
}

/**
 * Reads the JSON body within the size limit: 415 for another media type, 413 when too large,
 * 400 `invalid_json` when it does not parse.
 *
 * @example
 * app.post('/v1/payments', jsonBody(65_536), …);
 */
export function jsonBody(maxBytes: number): MiddlewareHandler<MockEnv> {
  return async (c, next) => {
    const result = await readJsonBody(c.req.raw, maxBytes);
    c.set('bodyText', result.text);
    if (!result.ok) {
      if (result.aborted) c.set('aborted', true);
      return problem(c, result.problem);
    }
    c.set('json', result.body);
    await next();
  };
}

/**
 * Answers 400 with every field problem (the `Idempotency-Key` header's first, when checked)
 * when the body does not match the operation's schema.
 *
 * @example
 * app.post('/v1/payments', …, validation({ idempotencyKey: true }), …);
 */
export function validation(options: { idempotencyKey: boolean }): MiddlewareHandler<MockEnv> {
  return async (c, next) => {
    const prepared = c.get('prepared');
    const errors = prepared.ok ? [] : [...prepared.errors];
    if (options.idempotencyKey && c.req.method === 'POST') {
      const keyError = checkIdempotencyKey(c.req.header('idempotency-key') ?? null);
      if (keyError !== undefined) errors.unshift(keyError);
    }
    if (errors.length > 0) return problem(c, invalidRequest(errors));
    await next();
  };
}

/**
 * Idempotency-Key handling for POSTs: replays a stored answer, 409 while the first request is in
 * flight, 422 on reuse with another request; stores the answer (not a 400, nor a failure).
 * A `drop_after_commit` fault drops the answer once the change is committed.
 *
 * @example
 * app.post('/v1/payments', …, idempotency(), handler);
 */
export function idempotency(): MiddlewareHandler<MockEnv> {
  return async (c, next) => {
    const service = c.get('service');
    const key = c.req.header('idempotency-key');
    if (key === undefined) {
      // Only a POST makes new data; reads and deletes are always served.
      const full = c.req.method === 'POST' ? service.checkCapacity() : undefined;
      if (full !== undefined) return problem(c, full);
      await next();
    } else {
      const request = {
        key,
        method: c.req.method,
        path: pathOf(c.req.url),
        bodyText: c.get('bodyText'),
        body: c.get('json'),
      };
      const decision = service.beginIdempotentRequest(request);
      if (decision.kind === 'problem') return problem(c, decision.problem);
      if (decision.kind === 'replay') {
        c.set('drop', service.takeDrop());
        return reply(c, decision.response, true);
      }
      const full = service.checkCapacity();
      if (full !== undefined) {
        // Nothing was done: the key is free again for the retry that Retry-After invites.
        service.finishIdempotentRequest(decision.record, undefined);
        return problem(c, full);
      }
      const account = service.find();
      if (account !== undefined)
        c.set('idempotency', { request, record: decision.record, account });
      await next();
      const stored = c.get('stored');
      const keep = c.error === undefined && stored !== undefined && stored.status !== 400;
      const record = c.get('idempotency')?.record ?? decision.record;
      service.finishIdempotentRequest(record, keep ? stored : undefined);
    }
    if (c.error === undefined) c.set('drop', service.takeDrop());
    service.release();
  };
}

/** What the handler step needs from the server. */
export interface HandlerStepOptions {
  /** Settle the key's due payments before the handler runs (the /v1 operations do). */
  settleFirst: boolean;
  sleep(ms: number): Promise<void>;
  /** Hands events to the webhook dispatcher. */
  deliver(events: readonly EventDelivery[]): void;
}

/**
 * Runs the operation's prepared handler (after any injected latency) and answers; the events it
 * caused go to the webhook dispatcher.
 *
 * @example
 * app.post('/v1/payments', …, handlerStep({ settleFirst: true, sleep, deliver }));
 */
export function handlerStep(options: HandlerStepOptions): MiddlewareHandler<MockEnv> {
  return async (c) => {
    const prepared = c.get('prepared');
    if (!prepared.ok) throw new Error('The handler step ran before validation passed.');
    const latency = c.get('latencyMs');
    if (latency > 0) {
      c.set('latencyMs', 0);
      await options.sleep(latency);
    }
    const service = c.get('service');
    const pending = c.get('idempotency');
    if (pending?.account.closed === true) {
      // The key was reset while this request waited: its record went with the old account, so
      // take the key again on the new one (no payment may be left without its record).
      const decision = service.beginIdempotentRequest(pending.request);
      if (decision.kind === 'problem') return problem(c, decision.problem);
      if (decision.kind === 'replay') return reply(c, decision.response, true);
      const account = service.find();
      if (account !== undefined)
        c.set('idempotency', extend(pending, { record: decision.record, account }));
    }
    if (options.settleFirst) {
      const { events } = service.settleDue();
      if (events.length > 0) options.deliver(events);
    }
    const url = c.req.url;
    const answer = prepared.value({
      service,
      id: c.req.param('id') ?? '',
      // Parsed only when a handler reads it (the list operations).
      get query() {
        const queryStart = url.indexOf('?');
        return new URLSearchParams(queryStart === -1 ? '' : url.slice(queryStart + 1));
      },
    });
    if (answer.events !== undefined) options.deliver(answer.events);
    const requestId = c.get('requestId');
    const stored =
      'problem' in answer
        ? toStoredProblem(answer.problem, requestId)
        : toStoredJson(answer.status, answer.body);
    c.set('stored', stored);
    return reply(c, stored);
  };
}

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
  return url.slice(pathStart, end);
}
