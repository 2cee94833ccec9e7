// Builds responses: JSON bodies, problem+json and idempotent replays, each with Request-Id.
import type { Context } from 'hono';
import { extend } from '../shared/objects.js';
import {
  type FieldError,
  MAX_LISTED_ERRORS,
  type ProblemInit,
  renderProblem,
} from '../shared/problems.js';
import type { StoredResponse } from '../store/account.js';
import type { MockEnv } from './env.js';

/**
 * Serializes a 2xx body into a stored response (status, headers, body text).
 *
 * @example
 * toStoredJson(201, { id: 'pay_1' }); // { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"pay_1"}' }
 */
export function toStoredJson(status: number, body: unknown): StoredResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/**
 * Renders a problem into a stored response, ready to send or keep for replay.
 *
 * @example
 * toStoredProblem({ code: 'not_found', detail: 'No payment.' }, 'req_1').status; // 404
 */
export function toStoredProblem(problem: ProblemInit, requestId: string): StoredResponse {
  return renderProblem(problem, requestId);
}

/**
 * Turns a stored response into a Response with the request's `Request-Id`; a replay also gets
 * `Idempotent-Replayed: true`.
 *
 * @example
 * toResponse(toStoredJson(200, {}), 'req_1').headers.get('request-id'); // 'req_1'
 */
export function toResponse(stored: StoredResponse, requestId: string, replayed = false): Response {
  const headers: Record<string, string> = extend(stored.headers, { 'request-id': requestId });
  if (replayed) headers['idempotent-replayed'] = 'true';
  return new Response(stored.body, { status: stored.status, headers });
}

/**
 * Answers a request with a stored response and its `Request-Id` (a replay also gets
 * `Idempotent-Replayed: true`), and leaves the body text for the inspector's recorder, which
 * would otherwise copy the Response to read it.
 *
 * @example
 * return reply(c, toStoredJson(201, payment));
 */
export function reply(c: Context<MockEnv>, stored: StoredResponse, replayed = false): Response {
  c.set('answerText', stored.body);
  c.set('answerCode', stored.code);
  return toResponse(stored, c.get('requestId'), replayed);
}

/**
 * Turns field errors into a 400 `invalid_request` problem: `param` is the first error's field,
 * `errors` lists them (the first `MAX_LISTED_ERRORS`, with a count of the rest), and the detail
 * says the same in words.
 *
 * @example
 * invalidRequest([{ param: 'amount', code: 'required', message: 'amount is required' }]).detail;
 * // 'amount is required.'
 */
export function invalidRequest(errors: FieldError[]): ProblemInit {
  const listed = errors.slice(0, MAX_LISTED_ERRORS).map((error) => error.message);
  const more = errors.length - listed.length;
  const detail =
    errors.length === 1
      ? `${listed[0]}.`
      : `The request has ${errors.length} problems: ${listed.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`;
  const problem: ProblemInit = { code: 'invalid_request', detail, errors };
  const param = errors[0]?.param;
  if (param) problem.param = param;
  return problem;
}

/**
 * Answers a request with a problem+json response carrying its `Request-Id`.
 *
 * @example
 * app.notFound((c) => problem(c, { code: 'not_found', detail: 'No such path.' }));
 */
export function problem(c: Context<MockEnv>, init: ProblemInit): Response {
  return reply(c, renderProblem(init, c.get('requestId')));
}
