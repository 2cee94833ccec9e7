// The optional logger hook: one entry per attempt, with no headers and no secrets.
import { maskSecrets } from './secrets.js';

/** What the SDK tells the `logger` after each attempt. Never headers, never bodies. */
export interface RequestLogEntry {
  /** `GET` or `POST`. */
  method: string;
  /** The URL path, e.g. `/v1/payments/pay_123` (no query, no host; a key in it masked). */
  path: string;
  /** The HTTP status; `undefined` when no response arrived. */
  status: number | undefined;
  /** The `Request-Id` response header, when there was a response. */
  requestId: string | undefined;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  /** Milliseconds from sending the attempt to its response headers (or its failure). */
  elapsedMs: number;
  /** Whether the SDK will retry after this attempt. */
  willRetry: boolean;
  /** The problem `code` of an error answer, or `connection_error`, `timeout`, `aborted`. */
  code?: string | undefined;
  /** A short description of a failure, with any `sk_…` key masked. */
  message?: string | undefined;
}

/** A function that receives one {@link RequestLogEntry} per attempt. */
export type Logger = (entry: RequestLogEntry) => void;

/**
 * Calls `logger` with the entry, masking `sk_…` keys in its path and message; a throwing logger
 * never breaks the request.
 *
 * @example
 * logAttempt(console.log, { method: 'GET', path: '/v1/payments', status: 200, requestId: 'req_1', attempt: 1, elapsedMs: 12, willRetry: false });
 */
export function logAttempt(logger: Logger | undefined, entry: RequestLogEntry): void {
  if (logger === undefined) return;
  // The path holds what the caller passed as an id: a key passed by mistake is masked too.
  entry.path = maskSecrets(entry.path);
  if (entry.message !== undefined) entry.message = maskSecrets(entry.message);
  try {
    logger(entry);
  } catch {
    // A logger's failure is not the request's failure.
  }
}
