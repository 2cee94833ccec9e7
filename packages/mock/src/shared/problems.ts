// RFC 9457 problem details: the error codes, their statuses and titles, and the problem+json body.
import { errorCodes, openapiDocument } from '@payment-service/openapi';
import { maskEscapedSecrets } from './secrets.js';

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

/** A problem as sent: status, headers and the serialized body, and its code. */
export interface ProblemResponseParts {
  status: number;
  headers: Record<string, string>;
  body: string;
  code: ProblemCode;
}

/** Field problems listed in a problem's `errors` (the spec's `Problem.errors.maxItems`). */
export const MAX_LISTED_ERRORS: number =
  openapiDocument.components.schemas.Problem.properties.errors.maxItems;

/** The most bytes a problem+json body has, whatever the request: every echo is cut to fit. */
export const MAX_PROBLEM_BYTES = 16_384;

/** The most characters of each text member of a problem (they may repeat what the client sent). */
const MAX_CHARACTERS = { detail: 2048, param: 256, message: 512 } as const;

/** Every character costs at most 3 bytes in UTF-8: shorter text needs no byte count. */
const MAX_BYTES_PER_CHARACTER = 3;
const encoder = new TextEncoder();

function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Builds the status, headers and `application/problem+json` body of a problem. Any text that
 * looks like a secret key is masked (also one written with percent-escapes, as a path's id
 * echoed in a detail may be), so a detail can never echo an API key. The body is bounded:
 * at most `MAX_LISTED_ERRORS` field problems (`errors_omitted` counts the rest), each text member
 * cut to a few hundred characters, and the whole at most `MAX_PROBLEM_BYTES` bytes.
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
    detail: clipText(maskEscapedSecrets(problem.detail), MAX_CHARACTERS.detail),
    code: problem.code,
  };
  if (problem.param) body.param = clipText(maskEscapedSecrets(problem.param), MAX_CHARACTERS.param);
  let listed: FieldError[] | undefined;
  let found = 0;
  if (problem.errors) {
    found = problem.errors.length;
    listed = problem.errors.slice(0, MAX_LISTED_ERRORS).map((error) => ({
      param: clipText(maskEscapedSecrets(error.param), MAX_CHARACTERS.param),
      code: error.code,
      message: clipText(maskEscapedSecrets(error.message), MAX_CHARACTERS.message),
    }));
    body.errors = listed;
  }
  body.request_id = requestId;
  let text = serialize(body, listed, found);
  // Rare (long echoes of multi-byte or escaped text): leave field problems out until it fits.
  while (!fits(text) && listed !== undefined && listed.length > 0) {
    listed.pop();
    text = serialize(body, listed, found);
  }
  if (!fits(text)) {
    body.detail = clipText(String(body.detail), MAX_CHARACTERS.param);
    if (body.param !== undefined) body.param = clipText(String(body.param), 64);
    text = serialize(body, listed, found);
  }
  return {
    status,
    headers: { 'content-type': 'application/problem+json', ...problem.headers },
    body: text,
    code: problem.code,
  };
}

/** Whether a body's UTF-8 encoding is within `MAX_PROBLEM_BYTES` (counted only when it may not be). */
function fits(text: string): boolean {
  return (
    text.length * MAX_BYTES_PER_CHARACTER <= MAX_PROBLEM_BYTES ||
    encoder.encode(text).length <= MAX_PROBLEM_BYTES
  );
}

/** The body's JSON, with `errors_omitted` when fewer problems are listed than were found. */
function serialize(
  body: Record<string, unknown>,
  listed: FieldError[] | undefined,
  found: number,
): string {
  if (listed === undefined || listed.length === found) return JSON.stringify(body);
  const { request_id, ...members } = body;
  return JSON.stringify({ ...members, errors_omitted: found - listed.length, request_id });
}
