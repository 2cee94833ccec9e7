// Builds responses: JSON bodies, problem+json and idempotent replays, each with Request-Id.
import { extend } from '../shared/objects.js';
import {
  type FieldError,
  MAX_LISTED_ERRORS,
  type ProblemInit,
  renderProblem,
} from '../shared/problems.js';
import { jsonResponse, type StoredResponse } from '../store/records.js';

/**
 * A 2xx body as a stored response (status, headers, body text): serialized here unless `text`
 * is its JSON already (a stored payment's cached text). The headers object is shared: nothing
 * changes a stored response's headers.
 *
 * @example
 * toStoredJson(201, { id: 'pay_1' }); // { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"pay_1"}' }
 */
export function toStoredJson(status: number, body: unknown, text?: string): StoredResponse {
  return jsonResponse(status, text ?? JSON.stringify(body));
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
