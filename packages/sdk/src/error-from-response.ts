// Turns a non-2xx response into the matching PaymentServiceError subclass, from one table.
import {
  AuthenticationError,
  ConflictError,
  IdempotencyError,
  InvalidRequestError,
  NotFoundError,
  PaymentServiceError,
  RateLimitError,
  ServerError,
} from './errors.js';
import { parseRetryAfter } from './retry.js';
import { maskSecrets, maskSecretsIn } from './secrets.js';
import type { Problem } from './types.js';

type ErrorClass = new (
  message: string,
  init: ConstructorParameters<typeof RateLimitError>[1],
) => PaymentServiceError;

/**
 * Which class each status (and, where it decides, each problem `code`) maps to.
 * Rows are tried in order; a row without `code` matches any code. Statuses no row names
 * (403, 405, …) yield the base `PaymentServiceError`.
 */
const errorTable: ReadonlyArray<{
  status: number | '5xx';
  code?: string;
  type: ErrorClass;
}> = [
  { status: 400, type: InvalidRequestError },
  { status: 401, type: AuthenticationError },
  { status: 404, type: NotFoundError },
  { status: 409, code: 'idempotency_key_in_use', type: IdempotencyError },
  { status: 409, type: ConflictError },
  { status: 413, type: InvalidRequestError },
  { status: 415, type: InvalidRequestError },
  { status: 421, type: InvalidRequestError },
  { status: 422, type: IdempotencyError },
  { status: 429, type: RateLimitError },
  { status: '5xx', type: ServerError },
];

/** How many characters of a non-JSON error body go into the message. */
const maxBodyTextLength = 200;

/**
 * Builds the error for a non-2xx response. `body` is the response body already read:
 * a parsed JSON value (normally an RFC 9457 problem) or the raw text; `attempts` counts the
 * attempts made (retries included). Any `sk_…` key in the body is masked in the error.
 *
 * @example
 * const response = new Response('{"code":"not_found","detail":"No such payment"}', { status: 404 });
 * const error = errorFromResponse(response, await response.json());
 * // error instanceof NotFoundError; error.message === '404 not_found: No such payment'
 */
export function errorFromResponse(
  response: Response,
  body: unknown,
  attempts = 1,
): PaymentServiceError {
  const { status, headers } = response;
  const problem = isObject(body) ? maskSecretsIn(body as Problem) : undefined;
  const code = stringField(problem, 'code') ?? 'unknown_error';
  const detail =
    stringField(problem, 'detail') ??
    stringField(problem, 'title') ??
    describeBodyText(body, response.statusText);
  const param = stringField(problem, 'param');
  const requestId = stringField(problem, 'request_id') ?? headers.get('Request-Id') ?? undefined;

  let message = `${status} ${code}: ${maskSecrets(detail)}`;
  if (param !== undefined) message += ` (param: ${param})`;
  if (requestId !== undefined) message += ` [request ${requestId}]`;

  const row = errorTable.find(
    (entry) =>
      (entry.status === '5xx' ? status >= 500 && status <= 599 : entry.status === status) &&
      (entry.code === undefined || entry.code === code),
  );
  const type: ErrorClass = row?.type ?? PaymentServiceError;
  return new type(message, {
    status,
    code,
    param,
    requestId,
    headers,
    problem,
    retryAfterSeconds: parseRetryAfter(headers.get('Retry-After')),
    attempts,
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringField(object: object | undefined, key: string): string | undefined {
  const value = (object as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function describeBodyText(body: unknown, statusText: string): string {
  const text = typeof body === 'string' ? body.trim().replace(/\s+/g, ' ') : '';
  if (text === '') return statusText || 'the response had no error body';
  return text.length > maxBodyTextLength ? `${text.slice(0, maxBodyTextLength)}…` : text;
}
