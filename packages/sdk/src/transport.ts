// Sends every API call through one request(): headers, Idempotency-Key, fetch failures, errors.
import type { paths } from '@payment-service/openapi';
import type { Client } from 'openapi-fetch';
import createFetchClient from 'openapi-fetch';
import { errorFromResponse } from './error-from-response.js';
import { ConnectionError, PaymentServiceError } from './errors.js';
import type { ValidatedClientOptions } from './options.js';

/** Per-call options accepted by every SDK method. */
export interface RequestOptions {
  /**
   * The `Idempotency-Key` of a POST (1 to 255 visible ASCII characters); a fresh
   * `crypto.randomUUID()` when omitted. Reuse the key to retry the same request safely.
   */
  idempotencyKey?: string;
  /** Aborts the call; the signal's own error is then thrown, not a ConnectionError. */
  signal?: AbortSignal;
}

/** What `request()` hands the openapi-fetch call: spread it into the call's options. */
export interface SendInit {
  fetch: (request: Request) => Promise<Response>;
  headers: Record<string, string>;
  signal: AbortSignal | undefined;
}

/** The shape of an openapi-fetch result that `request()` unwraps. */
export interface SendResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The typed openapi-fetch client plus the one function every SDK method goes through. */
export interface Transport {
  /** The openapi-fetch client, typed by the spec's `paths`; call it only inside `request()`. */
  readonly api: Client<paths>;
  /** Sends one call and returns its parsed 2xx body, or throws a PaymentServiceError. */
  request<Data>(
    method: 'GET' | 'POST' | 'DELETE',
    options: RequestOptions | undefined,
    send: (init: SendInit) => Promise<SendResult<Data>>,
  ): Promise<Data>;
}

const idempotencyKeyPattern = /^[\x20-\x7e]{1,255}$/;

/**
 * Creates the transport: an openapi-fetch client with the `Authorization` and `Accept`
 * headers, and `request()`. Retries and timeouts belong in `request()`, the one place
 * every call passes (the Idempotency-Key is chosen there once per call, before any retry).
 *
 * @example
 * const transport = createTransport({ apiKey: 'sk_test_123', baseUrl: 'http://localhost:4010', fetch });
 * const payment = await transport.request('GET', undefined, (init) =>
 *   transport.api.GET('/v1/payments/{id}', { params: { path: { id: 'pay_123' } }, ...init }),
 * );
 */
export function createTransport(options: ValidatedClientOptions): Transport {
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    headers: { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/json' },
  });
  const sendFetch = options.fetch;

  async function request<Data>(
    method: 'GET' | 'POST' | 'DELETE',
    requestOptions: RequestOptions | undefined,
    send: (init: SendInit) => Promise<SendResult<Data>>,
  ): Promise<Data> {
    const headers: Record<string, string> = {};
    if (method === 'POST') headers['Idempotency-Key'] = idempotencyKeyFor(requestOptions);

    let response: Response | undefined;
    const fetchOnce = async (outgoing: Request): Promise<Response> => {
      try {
        response = await sendFetch(outgoing);
        return response;
      } catch (cause) {
        if (outgoing.signal.aborted) throw cause;
        throw new ConnectionError(
          `connection_error: ${outgoing.method} ${outgoing.url} failed: ${messageOf(cause)}`,
          { code: 'connection_error', cause },
        );
      }
    };

    let result: SendResult<Data>;
    try {
      result = await send({ fetch: fetchOnce, headers, signal: requestOptions?.signal });
    } catch (error) {
      // openapi-fetch parses a 2xx body as JSON and throws a SyntaxError when it is not.
      if (error instanceof SyntaxError && response !== undefined) {
        throw invalidResponse(response, error);
      }
      throw error;
    }
    if (!result.response.ok) throw errorFromResponse(result.response, result.error);
    if (result.data === undefined) throw invalidResponse(result.response);
    return result.data;
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

function invalidResponse(response: Response, cause?: unknown): PaymentServiceError {
  const requestId = response.headers.get('Request-Id') ?? undefined;
  let message = `${response.status} invalid_response: the 2xx response body is not the JSON object the spec describes`;
  if (requestId !== undefined) message += ` [request ${requestId}]`;
  return new PaymentServiceError(message, {
    status: response.status,
    code: 'invalid_response',
    requestId,
    headers: response.headers,
    cause,
  });
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
