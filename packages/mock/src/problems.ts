// RFC 9457 problem details: the error codes, their statuses and titles, and the problem+json body.
import { errorCodes } from '@payment-service/openapi';
import { maskSecrets } from './secrets.js';

/**
 * Every stable error code the mock answers with, and its HTTP status and title: the spec's
 * `ErrorCode` vocabulary (`x-error-codes`), generated into `@payment-service/openapi`.
 */
export const PROBLEM_TYPES = errorCodes;

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
