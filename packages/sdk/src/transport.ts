// Sends every API call through one request(): headers, Idempotency-Key, timeouts, retries, errors.
import type { paths } from '@payment-service/openapi';
import type { Client } from 'openapi-fetch';
import createFetchClient from 'openapi-fetch';
import { type AttemptSignal, startAttemptSignal } from './attempt-signal.js';
import { errorFromResponse } from './error-from-response.js';
import {
  AbortedError,
  ConnectionError,
  InvalidResponseError,
  PaymentServiceError,
  TimeoutError,
} from './errors.js';
import { logAttempt } from './logger.js';
import { checkMaxRetries, checkTimeout, type ValidatedClientOptions } from './options.js';
import { OutgoingRequest } from './outgoing-request.js';
import { BodyTooLargeError, ReadResponse, readBody } from './read-body.js';
import { isRetryableStatus, parseRetryAfter, retryDelayMs, sleep } from './retry.js';
import { sdkUserAgent } from './runtime.js';

/** Per-call options accepted by every SDK method. */
export interface RequestOptions {
  /**
   * The `Idempotency-Key` of a POST (1 to 255 visible ASCII characters); a fresh
   * `crypto.randomUUID()` when omitted. The same key is sent on every retry of the call.
   */
  idempotencyKey?: string;
  /** Cancels the call and its pending retries; it then throws an AbortedError. */
  signal?: AbortSignal;
  /** Retries after a failed attempt for this call (overrides the client's; 0 for none). */
  maxRetries?: number;
  /** Milliseconds one attempt of this call may take (overrides the client's). */
  timeout?: number;
}

/** What `request()` hands the openapi-fetch call: spread it into the call's options. */
export type SendInit = {
  fetch: (request: Request) => Promise<Response>;
};

/** The shape of an openapi-fetch result that `request()` unwraps. */
export interface SendResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response | ReadResponse;
}

/** The typed openapi-fetch client plus the one function every SDK method goes through. */
export interface Transport {
  /** The openapi-fetch client, typed by the spec's `paths`; call it only inside `request()`. */
  readonly api: Client<paths>;
  /** Sends one call (retrying as needed) and returns its parsed 2xx body, or throws a PaymentServiceError. */
  request<Data>(
    method: 'GET' | 'POST' | 'DELETE',
    options: RequestOptions | undefined,
    send: (init: SendInit) => Promise<SendResult<Data>>,
  ): Promise<Data>;
}

const idempotencyKeyPattern = /^[\x20-\x7e]{1,255}$/;

/**
 * Creates the transport: an openapi-fetch client with the `Authorization`, `Accept` and
 * `User-Agent` headers, and `request()`, which chooses the Idempotency-Key once per call and
 * then sends attempts, each under its own timeout, retrying connection errors, timeouts, 408,
 * 409 `idempotency_key_in_use`, 429 and 5xx. Every POST carries the key, so every retry is safe.
 *
 * @example
 * const transport = createTransport(validateClientOptions({ apiKey: 'sk_test_12345678', baseUrl: 'http://localhost:4010' }));
 * const payment = await transport.request('GET', undefined, (init) =>
 *   transport.api.GET('/v1/payments/{id}', { params: { path: { id: 'pay_123' } }, ...init }),
 * );
 */
export function createTransport(options: ValidatedClientOptions): Transport {
  const userAgent = sdkUserAgent();
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    // openapi-fetch builds an OutgoingRequest, not a WHATWG Request: request() sends it.
    Request: OutgoingRequest as unknown as typeof Request,
  });
  // The headers of every call, added when each attempt is sent as a plain record: given to
  // openapi-fetch, they would be copied into two Headers objects per call (~10 µs on Node 20).
  const callHeaders: Record<string, string> = {
    authorization: `Bearer ${options.apiKey}`,
    accept: 'application/json',
  };
  if (userAgent !== undefined) callHeaders['user-agent'] = userAgent;
  const { fetch: sendFetch, logger, maxResponseBytes } = options;

  async function request<Data>(
    method: 'GET' | 'POST' | 'DELETE',
    requestOptions: RequestOptions | undefined,
    send: (init: SendInit) => Promise<SendResult<Data>>,
  ): Promise<Data> {
    const maxRetries = checkMaxRetries(requestOptions?.maxRetries) ?? options.maxRetries;
    const timeout = checkTimeout(requestOptions?.timeout) ?? options.timeout;
    const signal = requestOptions?.signal;
    const idempotencyKey = method === 'POST' ? idempotencyKeyFor(requestOptions) : undefined;

    let attempts = 0;
    let current: AttemptSignal | undefined;
    let last: ReadResponse | undefined;
    const aborted = () =>
      new AbortedError('aborted: the request was cancelled by its AbortSignal', {
        code: 'aborted',
        cause: signal?.reason,
        attempts,
      });
    if (signal?.aborted) throw aborted();

    const sendWithRetries = async (outgoing: OutgoingRequest): Promise<ReadResponse> => {
      const { body } = outgoing;
      // Not `{ ...callHeaders }`: V8 (Node 20) takes a slow path adding keys to a spread copy.
      const headers: Record<string, string> = Object.assign({}, callHeaders);
      outgoing.headers.forEach((value, name) => {
        headers[name] = value; // Content-Type, from openapi-fetch
      });
      if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
      // Parsed only for the logger (URL parsing costs on every call otherwise).
      const path = logger === undefined ? '' : new URL(outgoing.url).pathname;
      while (true) {
        attempts += 1;
        current?.clear();
        current = startAttemptSignal(signal, timeout);
        const started = logger === undefined ? 0 : Date.now();
        let answer: Response | undefined;
        let response: ReadResponse;
        try {
          answer = await sendFetch(outgoing.url, {
            method: outgoing.method,
            headers,
            body,
            signal: current.signal,
            // The API never redirects: a 3xx means a wrong baseUrl, and following it could turn
            // a POST into a GET. Refusing redirects (with no window) also spares fetch a copy of
            // the request and a tee of its body (~25 % of bare fetch's CPU per call on Node 20).
            redirect: 'error',
            window: null,
          });
          // Read within the cap and under the attempt's timeout, before anything parses it.
          response = new ReadResponse(
            answer,
            await readBody(answer, maxResponseBytes, current.signal),
          );
        } catch (cause) {
          // A body past the cap is never retried: the same server would send it again.
          const error =
            cause instanceof BodyTooLargeError
              ? invalidResponse(cause, attempts, answer, tooLargeReason(cause))
              : failure(cause, current, outgoing, timeout);
          const willRetry =
            !(error instanceof AbortedError) &&
            !(error instanceof InvalidResponseError) &&
            !isRedirect(cause) &&
            attempts <= maxRetries;
          logAttempt(logger, {
            method,
            path,
            attempt: attempts,
            status: answer?.status,
            requestId: answer?.headers.get('Request-Id') ?? undefined,
            elapsedMs: Date.now() - started,
            willRetry,
            code: error.code,
            message: error.message,
          });
          if (!willRetry) throw error;
          await sleep(retryDelayMs(attempts, undefined) ?? 0, signal, aborted);
          continue;
        }
        const problem = response.ok ? undefined : problemOf(response.body);
        const delay =
          !response.ok &&
          attempts <= maxRetries &&
          isRetryableStatus(response.status, problem?.code)
            ? retryDelayMs(attempts, parseRetryAfter(response.headers.get('Retry-After')))
            : undefined;
        if (logger !== undefined) {
          logAttempt(logger, {
            method,
            path,
            attempt: attempts,
            status: response.status,
            requestId: response.headers.get('Request-Id') ?? undefined,
            elapsedMs: Date.now() - started,
            willRetry: delay !== undefined,
            code: problem?.code,
            message: problem?.detail,
          });
        }
        if (delay === undefined) {
          last = response;
          return response;
        }
        await sleep(delay, signal, aborted);
      }
    };

    let result: SendResult<Data>;
    try {
      result = await send({ fetch: sendWithRetries as unknown as SendInit['fetch'] });
    } catch (error) {
      if (error instanceof PaymentServiceError) throw error;
      // Reading the final body failed: the caller aborted, the timeout fired, or it was not JSON.
      if (signal?.aborted) throw aborted();
      if (current?.timedOut()) throw timeoutError(timeout, attempts, error);
      if (error instanceof SyntaxError) throw invalidResponse(error, attempts, last);
      throw error;
    } finally {
      current?.clear();
    }
    if (!result.response.ok) {
      throw errorFromResponse(result.response as Response, result.error, attempts);
    }
    // Every 2xx body of the API is a JSON object: anything else (null, an array, a string) is not its answer.
    const { data } = result;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw invalidResponse(undefined, attempts, result.response);
    }
    return data;

    function failure(
      cause: unknown,
      attempt: AttemptSignal,
      outgoing: OutgoingRequest,
      timeoutMs: number,
    ): PaymentServiceError {
      if (signal?.aborted) return aborted();
      if (attempt.timedOut()) return timeoutError(timeoutMs, attempts, cause);
      const reason = isRedirect(cause)
        ? 'the server answered a redirect (3xx), which the SDK does not follow: set baseUrl to the final URL'
        : messageOf(cause);
      return new ConnectionError(
        `connection_error: ${outgoing.method} ${outgoing.url} failed: ${reason}`,
        { code: 'connection_error', cause, attempts },
      );
    }
  }

  return { api, request };
}

function idempotencyKeyFor(options: RequestOptions | undefined): string {
  const key = options?.idempotencyKey;
  if (key === undefined) return crypto.randomUUID();
  if (typeof key !== 'string' || !idempotencyKeyPattern.test(key)) {
    throw new TypeError('idempotencyKey must be 1 to 255 visible ASCII characters');
  }
  return key;
}

/** The `code` and `detail` of an error answer's body, when it is a JSON object. */
function problemOf(text: string): { code?: string; detail?: string } | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null) return undefined;
    const { code, detail } = body as Record<string, unknown>;
    return {
      code: typeof code === 'string' ? code : undefined,
      detail: typeof detail === 'string' ? detail : undefined,
    };
  } catch {
    return undefined;
  }
}

function timeoutError(timeoutMs: number, attempts: number, cause: unknown): TimeoutError {
  return new TimeoutError(
    `timeout: no complete response within ${timeoutMs} ms (attempt ${attempts}); the timeout option sets the limit`,
    { code: 'timeout', cause, attempts },
  );
}

function invalidResponse(
  cause: unknown,
  attempts: number,
  response?: ReadResponse | Response,
  reason = 'the 2xx response body is not the JSON object the spec describes',
): InvalidResponseError {
  const requestId = response?.headers.get('Request-Id') ?? undefined;
  let message = `${response?.status ?? 'unknown'} invalid_response: ${reason}`;
  if (requestId !== undefined) message += ` [request ${requestId}]`;
  return new InvalidResponseError(message, {
    status: response?.status,
    code: 'invalid_response',
    requestId,
    headers: response?.headers,
    cause,
    attempts,
  });
}

function tooLargeReason({ limitBytes, observedBytes }: BodyTooLargeError): string {
  return `the response body is larger than the ${limitBytes}-byte limit (the maxResponseBytes option): the SDK stopped reading it at ${observedBytes} bytes, counted after decoding`;
}

/** The message of a failed fetch, with its cause's (Node's fetch says only "fetch failed"). */
function messageOf(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? cause.cause.message : undefined;
  return inner === undefined || inner === '' ? cause.message : `${cause.message} (${inner})`;
}

/** Whether fetch failed because the server redirected (Node's fetch names it; browsers do not). */
function isRedirect(cause: unknown): boolean {
  return (
    cause instanceof TypeError &&
    cause.cause instanceof Error &&
    cause.cause.message === 'unexpected redirect'
  );
}
