import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  IdempotencyError,
  InvalidRequestError,
  NotFoundError,
  PaymentServiceError,
  RateLimitError,
  ServerError,
} from './errors.js';
import { validateClientOptions } from './options.js';
import { paymentFixture, problemResponse } from './test-support/fetch-stub.js';
import { createTransport } from './transport.js';

const apiKey = 'sk_test_transportSecret';

function transportWith(fetch: typeof globalThis.fetch) {
  return createTransport(validateClientOptions({ apiKey, baseUrl: 'http://sandbox.test', fetch }));
}

/** Retrieves pay_1 once: these tests check the mapping of one answer, so no retries. */
function retrieve(fetch: typeof globalThis.fetch, signal?: AbortSignal) {
  const { api, request } = transportWith(fetch);
  return request('GET', { signal, maxRetries: 0 }, (init) =>
    api.GET('/v1/payments/{id}', { params: { path: { id: 'pay_1' } }, ...init }),
  );
}

describe('transport request()', () => {
  it('returns the parsed 2xx body', async () => {
    const fetch = async () => Response.json(paymentFixture(), { status: 200 });
    await expect(retrieve(fetch)).resolves.toEqual(paymentFixture());
  });

  it.each([
    [400, 'invalid_json', InvalidRequestError],
    [401, 'invalid_api_key', AuthenticationError],
    [404, 'not_found', NotFoundError],
    [409, 'invalid_state', ConflictError],
    [409, 'idempotency_key_in_use', IdempotencyError],
    [413, 'body_too_large', InvalidRequestError],
    [415, 'unsupported_media_type', InvalidRequestError],
    [422, 'idempotency_key_reused', IdempotencyError],
    [429, 'rate_limited', RateLimitError],
    [500, 'internal_error', ServerError],
  ] as const)('throws %i %s as %o through openapi-fetch', async (status, code, type) => {
    const fetch = async () => problemResponse(status, code, 'detail');
    const error = await retrieve(fetch).catch((e) => e);
    expect(error).toBeInstanceOf(type);
    expect(error.code).toBe(code);
    expect(error.problem?.code).toBe(code);
  });

  it('maps a non-JSON error body to unknown_error with the text', async () => {
    const fetch = async () =>
      new Response('upstream connect error', {
        status: 503,
        headers: { 'Content-Type': 'text/plain' },
      });
    const error = await retrieve(fetch).catch((e) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.code).toBe('unknown_error');
    expect(error.message).toBe('503 unknown_error: upstream connect error');
  });

  it('wraps a throwing fetch in ConnectionError, keeping the cause', async () => {
    const cause = new TypeError('fetch failed');
    const error = await retrieve(async () => {
      throw cause;
    }).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toBeInstanceOf(PaymentServiceError);
    expect(error.name).toBe('ConnectionError');
    expect(error.status).toBeUndefined();
    expect(error.code).toBe('connection_error');
    expect(error.cause).toBe(cause);
    expect(error.message).toBe(
      'connection_error: GET http://sandbox.test/v1/payments/pay_1 failed: fetch failed',
    );
    expect(error.message).not.toContain(apiKey);
  });

  it('turns the caller’s abort into an AbortedError carrying the signal’s reason', async () => {
    const controller = new AbortController();
    const fetch = (input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        const { signal } = new Request(input, init);
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    const pending = retrieve(fetch as typeof globalThis.fetch, controller.signal);
    controller.abort();
    const error = await pending.catch((e) => e);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.code).toBe('aborted');
    expect(error.cause).toBe(controller.signal.reason);
  });
});

describe('transport redirects', () => {
  it('refuses a 3xx without retrying, saying what to fix, and the Location is never requested', async () => {
    const { createServer } = await import('node:http');
    const hits: string[] = [];
    const server = createServer((request, response) => {
      hits.push(`${request.method} ${request.url}`);
      response.writeHead(302, { location: '/v1/payments' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    try {
      const transport = createTransport(
        validateClientOptions({
          apiKey,
          baseUrl: `http://127.0.0.1:${address.port}`,
          maxRetries: 2,
        }),
      );
      const error = await transport
        .request('POST', undefined, (init) =>
          transport.api.POST('/v1/payments/{id}/cancel', {
            params: { path: { id: 'pay_1' } },
            ...init,
          }),
        )
        .catch((e) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error.attempts).toBe(1);
      expect(error.message).toMatch(
        /failed: the server answered a redirect \(3xx\), which the SDK does not follow: set baseUrl to the final URL$/,
      );
      expect(hits).toEqual(['POST /v1/payments/pay_1/cancel']);
    } finally {
      server.close();
    }
  });

  it('names the cause of a failed fetch (Node says only "fetch failed")', async () => {
    const cause = new TypeError('fetch failed', {
      cause: new Error('connect ECONNREFUSED 127.0.0.1:9'),
    });
    const error = await retrieve(async () => {
      throw cause;
    }).catch((e) => e);
    expect(error.message).toBe(
      'connection_error: GET http://sandbox.test/v1/payments/pay_1 failed: fetch failed (connect ECONNREFUSED 127.0.0.1:9)',
    );
  });
});
