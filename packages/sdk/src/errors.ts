// The SDK's error classes: one base class and one subclass per cause of failure.
import type { Problem } from './types.js';

/** Marks SDK errors so `instanceof` works across duplicated copies of this package. */
const brand = Symbol.for('@payment-service/sdk/error');

/** What an error carries besides its message. */
export interface PaymentServiceErrorInit {
  /** The HTTP status; `undefined` when no response arrived. */
  status?: number | undefined;
  /** The problem's machine-readable `code` (`unknown_error` when the body had none). */
  code: string;
  /** The request field at fault, when one is. */
  param?: string | undefined;
  /** The problem body's `request_id`, else the `Request-Id` response header. */
  requestId?: string | undefined;
  /** The response headers (empty when no response arrived). */
  headers?: Headers | undefined;
  /** The parsed error body, when it was JSON (as received, not validated). */
  problem?: Problem | undefined;
  /** The underlying error, if any. */
  cause?: unknown;
  /** How many attempts were made before giving up (1 when the request was not retried). */
  attempts?: number | undefined;
}

/**
 * Base class of every error the SDK throws for a failed request.
 *
 * `instanceof` checks a brand rather than the prototype chain, so an error thrown by one
 * copy of the package is still recognised by another copy's classes.
 *
 * @example
 * try {
 *   await client.payments.retrieve('pay_missing');
 * } catch (error) {
 *   if (error instanceof PaymentServiceError) console.log(error.status, error.code, error.requestId);
 * }
 */
export class PaymentServiceError extends Error {
  /** The brand name tested by `instanceof`; each subclass declares its own. */
  static readonly kind: string = 'PaymentServiceError';

  readonly status: number | undefined;
  readonly code: string;
  readonly param: string | undefined;
  readonly requestId: string | undefined;
  readonly headers: Headers;
  readonly problem: Problem | undefined;
  /** How many attempts the SDK made, retries included (1 when it did not retry). */
  readonly attempts: number;

  constructor(message: string, init: PaymentServiceErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    const kinds: string[] = [];
    for (let type: unknown = new.target; typeof type === 'function'; ) {
      if (Object.hasOwn(type, 'kind')) kinds.push((type as typeof PaymentServiceError).kind);
      type = Object.getPrototypeOf(type);
    }
    Object.defineProperty(this, brand, { value: kinds });
    this.name = new.target.kind;
    this.status = init.status;
    this.code = init.code;
    this.param = init.param;
    this.requestId = init.requestId;
    this.headers = init.headers ?? new Headers();
    this.problem = init.problem;
    this.attempts = init.attempts ?? 1;
  }

  /** Brand check: true for SDK errors of this class from any copy of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: instanceof must test the class it is called on.
    return hasBrand(this, value);
  }
}

/** Whether `value` is an error of `type`, by brand for the SDK's classes, else by prototype. */
function hasBrand(type: typeof PaymentServiceError, value: unknown): boolean {
  if (!Object.hasOwn(type, 'kind')) return Function.prototype[Symbol.hasInstance].call(type, value);
  const kinds = (value as { [brand]?: unknown } | null)?.[brand];
  return Array.isArray(kinds) && kinds.includes(type.kind);
}

/**
 * The request was malformed or refused as sent: 400 (`invalid_request`, `invalid_json`),
 * 413 (`body_too_large`), 415 (`unsupported_media_type`) or 421 (`host_not_allowed`: the base
 * URL names a host the sandbox does not answer).
 *
 * @example
 * if (error instanceof InvalidRequestError) console.log(error.param, error.problem?.errors);
 */
export class InvalidRequestError extends PaymentServiceError {
  static override readonly kind: string = 'InvalidRequestError';
}

/**
 * The API key was missing, malformed, unknown, or a live key used in the sandbox (401).
 *
 * @example
 * if (error instanceof AuthenticationError) console.log('check the API key:', error.code);
 */
export class AuthenticationError extends PaymentServiceError {
  static override readonly kind: string = 'AuthenticationError';
}

/**
 * No such resource belongs to the calling key (404 `not_found`).
 *
 * @example
 * if (error instanceof NotFoundError) return null;
 */
export class NotFoundError extends PaymentServiceError {
  static override readonly kind: string = 'NotFoundError';
}

/**
 * The resource's state does not allow the action (409 `invalid_state`, and other 409s).
 *
 * @example
 * if (error instanceof ConflictError) console.log('payment is not AUTHORIZED');
 */
export class ConflictError extends PaymentServiceError {
  static override readonly kind: string = 'ConflictError';
}

/**
 * The Idempotency-Key is still in flight (409 `idempotency_key_in_use`) or was used with
 * another request (422 `idempotency_key_reused`).
 *
 * @example
 * if (error instanceof IdempotencyError) console.log('use a new Idempotency-Key:', error.code);
 */
export class IdempotencyError extends PaymentServiceError {
  static override readonly kind: string = 'IdempotencyError';
}

/** What a {@link RateLimitError} or {@link ServerError} carries besides the base fields. */
export interface RetryableErrorInit extends PaymentServiceErrorInit {
  /** Seconds to wait from the `Retry-After` header, when it was sent. */
  retryAfterSeconds?: number | undefined;
}

/**
 * Too many requests (429 `rate_limited`); `retryAfterSeconds` comes from `Retry-After`.
 *
 * @example
 * if (error instanceof RateLimitError) await sleep((error.retryAfterSeconds ?? 1) * 1000);
 */
export class RateLimitError extends PaymentServiceError {
  static override readonly kind: string = 'RateLimitError';
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, init: RetryableErrorInit) {
    super(message, init);
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/**
 * The service failed or is unavailable (5xx); never caused by the request's content.
 *
 * @example
 * if (error instanceof ServerError) console.log('retry with the same idempotencyKey');
 */
export class ServerError extends PaymentServiceError {
  static override readonly kind: string = 'ServerError';
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, init: RetryableErrorInit) {
    super(message, init);
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/**
 * The answer cannot be trusted as the API's (code `invalid_response`): a 2xx body that is not the
 * JSON object the spec describes, a body larger than the `maxResponseBytes` option (counted
 * decoded), or a list whose pages do not advance. Not retried: the same server would answer alike.
 *
 * @example
 * if (error instanceof InvalidResponseError) console.log('the API answered nonsense:', error.message);
 */
export class InvalidResponseError extends PaymentServiceError {
  static override readonly kind: string = 'InvalidResponseError';
}

/**
 * No response arrived: `fetch` threw (DNS, refused connection, TLS, …). `status` is
 * `undefined` and `cause` holds what `fetch` threw. Retried (every POST carries an
 * Idempotency-Key, so a retry cannot charge twice); thrown once the retries are spent.
 *
 * @example
 * if (error instanceof ConnectionError) console.log('network problem:', error.cause);
 */
export class ConnectionError extends PaymentServiceError {
  static override readonly kind: string = 'ConnectionError';
}

/**
 * An attempt got no response within the timeout (the `timeout` option, per attempt). A
 * ConnectionError too, so one `instanceof ConnectionError` catches every missing response.
 *
 * @example
 * if (error instanceof TimeoutError) console.log(`no answer after ${error.attempts} attempts`);
 */
export class TimeoutError extends ConnectionError {
  static override readonly kind: string = 'TimeoutError';
}

/**
 * The caller's `AbortSignal` cancelled the request (or its pending retry); `cause` holds the
 * signal's reason. Nothing more is sent after an abort.
 *
 * @example
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 1000);
 * try {
 *   await client.payments.list(undefined, { signal: controller.signal });
 * } catch (error) {
 *   if (error instanceof AbortedError) console.log('cancelled');
 * }
 */
export class AbortedError extends PaymentServiceError {
  static override readonly kind: string = 'AbortedError';
}
