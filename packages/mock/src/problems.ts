// RFC 9457 problem details: the error codes, their statuses and titles, and the problem+json body.
import { maskSecrets } from './secrets.js';

/** Every stable error code the mock answers with, and its HTTP status and title. */
export const PROBLEM_TYPES = {
  invalid_request: { status: 400, title: 'Invalid request' },
  invalid_json: { status: 400, title: 'Invalid JSON' },
  missing_api_key: { status: 401, title: 'Missing API key' },
  invalid_api_key: { status: 401, title: 'Invalid API key' },
  live_key_in_sandbox: { status: 401, title: 'Live key used in the sandbox' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  invalid_state: { status: 409, title: 'Invalid state' },
  idempotency_key_in_use: { status: 409, title: 'Idempotency key in use' },
  body_too_large: { status: 413, title: 'Body too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  bad_gateway: { status: 502, title: 'Bad gateway' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  gateway_timeout: { status: 504, title: 'Gateway timeout' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEM_TYPES;

/** One problem with one request field, as listed in a problem's `errors`. */
export interface FieldError {
  param: string;
  code: string;
  message: string;
}

/** What a handler says about a problem; the status and title follow from the code. */
export interface ProblemInit {
  code: ProblemCode;
  detail: string;
  param?: string;
  errors?: FieldError[];
  /** Extra response headers, such as `Allow` or `Retry-After`. */
  headers?: Record<string, string>;
}

/** A problem as sent: status, headers and the serialized body. */
export interface ProblemResponseParts {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Builds the status, headers and `application/problem+json` body of a problem. Any text that
 * looks like a secret key is masked, so a detail can never echo an API key.
 *
 * @example
 * const parts = renderProblem({ code: 'not_found', detail: 'No payment pay_1.' }, 'req_1');
 * parts.status; // 404
 */
export function renderProblem(problem: ProblemInit, requestId: string): ProblemResponseParts {
  const { status, title } = PROBLEM_TYPES[problem.code];
  const body: Record<string, unknown> = {
    type: `urn:payment-service:problem:${problem.code}`,
    title,
    status,
    detail: maskSecrets(problem.detail),
    code: problem.code,
  };
  if (problem.param) body.param = maskSecrets(problem.param);
  if (problem.errors) {
    body.errors = problem.errors.map((error) => ({
      param: maskSecrets(error.param),
      code: error.code,
      message: maskSecrets(error.message),
    }));
  }
  body.request_id = requestId;
  return {
    status,
    headers: { 'content-type': 'application/problem+json', ...problem.headers },
    body: JSON.stringify(body),
  };
}
