import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from './client.js';
import {
  AbortedError,
  ConnectionError,
  InvalidRequestError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from './errors.js';
import type { RequestLogEntry } from './logger.js';
import type { ClientOptions } from './options.js';
import {
  createFetchStub,
  jsonResponse,
  paymentFixture,
  problemResponse,
  type StubAnswer,
} from './test-support/fetch-stub.js';
import { startHostileServer } from './test-support/hostile-server.js';
import { sdkVersion } from './version.js';

const secretPart = 'R3tryS3cretPart';
const apiKey = `sk_test_${secretPart}`;
const createParams = {
  amount: 100,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_success' },
} as const;

function clientWith(answer: StubAnswer, options: Partial<ClientOptions> = {}) {
  const stub = createFetchStub(answer);
  const client = createClient({
    apiKey,
    baseUrl: 'http://sandbox.test',
    fetch: stub.fetch,
    ...options,
  });
  return { client, requests: stub.requests };
}

/** Fails the first `failures` attempts with `failure`, then answers a payment. */
function failThenSucceed(failures: number, failure: () => Response) {
  return (_request: unknown, index: number) => {
    if (index < failures) return failure();
    return jsonResponse(paymentFixture(), 201);
  };
}

const noWait = { 'Retry-After': '0' };

afterEach(() => {
  vi.useRealTimers();
});

describe('retries', () => {
  it.each([
    [408, 'request_timeout'],
    [409, 'idempotency_key_in_use'],
    [429, 'rate_limited'],
    [500, 'internal_error'],
    [502, 'bad_gateway'],
    [503, 'service_unavailable'],
    [504, 'gateway_timeout'],
  ])('retries %i %s with the same Idempotency-Key', async (status, code) => {
    const { client, requests } = clientWith(
      failThenSucceed(2, () => problemResponse(status, code, 'try again', {}, noWait)),
    );
    await expect(client.payments.create(createParams)).resolves.toEqual(paymentFixture());
    expect(requests).toHaveLength(3);
    const keys = new Set(requests.map((request) => request.headers.get('Idempotency-Key')));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
  });

  it('retries a connection error with the caller’s Idempotency-Key', async () => {
    const stub = createFetchStub(() => jsonResponse(paymentFixture(), 201));
    let calls = 0;
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      calls += 1;
      if (calls === 1) {
        await stub.fetch(input, init);
        throw new TypeError('fetch failed');
      }
      return stub.fetch(input, init);
    }) as typeof globalThis.fetch;
    const client = createClient({ apiKey, baseUrl: 'http://sandbox.test', fetch });
    vi.useFakeTimers();
    const created = client.payments.create(createParams, { idempotencyKey: 'order-1042' });
    await vi.runAllTimersAsync(); // the back-off before the retry, on injected time
    await created;
    expect(stub.requests.map((request) => request.headers.get('Idempotency-Key'))).toEqual([
      'order-1042',
      'order-1042',
    ]);
  });

  it.each([
    [400, 'invalid_request'],
    [401, 'invalid_api_key'],
    [404, 'not_found'],
    [409, 'invalid_state'],
    [422, 'idempotency_key_reused'],
  ])('does not retry %i %s', async (status, code) => {
    const { client, requests } = clientWith(() => problemResponse(status, code, 'no'));
    const error = await client.payments.create(createParams).catch((caught) => caught);
    expect(error.status).toBe(status);
    expect(error.attempts).toBe(1);
    expect(requests).toHaveLength(1);
  });

  it('makes 3 attempts by default, then throws with the attempts counted', async () => {
    const { client, requests } = clientWith(() =>
      problemResponse(503, 'service_unavailable', 'down', {}, noWait),
    );
    const error = await client.payments.list().catch((caught) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.attempts).toBe(3);
    expect(requests).toHaveLength(3);
  });

  it('takes maxRetries from the client and from the request', async () => {
    const answer = () => problemResponse(500, 'internal_error', 'down', {}, noWait);
    const perClient = clientWith(answer, { maxRetries: 4 });
    await expect(perClient.client.payments.list()).rejects.toBeInstanceOf(ServerError);
    expect(perClient.requests).toHaveLength(5);
    const perRequest = clientWith(answer, { maxRetries: 4 });
    const error = await perRequest.client.payments
      .list(undefined, { maxRetries: 0 })
      .catch((caught) => caught);
    expect(error.attempts).toBe(1);
    expect(perRequest.requests).toHaveLength(1);
  });

  it('waits with exponential backoff when no Retry-After is sent', async () => {
    vi.useFakeTimers();
    const { client, requests } = clientWith(
      failThenSucceed(1, () => problemResponse(502, 'bad_gateway', 'x')),
    );
    const created = client.payments.create(createParams);
    // The first retry waits between half and all of 500 ms (jitter).
    await vi.advanceTimersByTimeAsync(249);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(251);
    await created;
    expect(requests).toHaveLength(2);
  });

  it('honours Retry-After in seconds', async () => {
    vi.useFakeTimers();
    const { client, requests } = clientWith(
      failThenSucceed(1, () =>
        problemResponse(429, 'rate_limited', 'slow', {}, { 'Retry-After': '1' }),
      ),
    );
    const created = client.payments.create(createParams);
    await vi.advanceTimersByTimeAsync(999);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await created;
    expect(requests).toHaveLength(2);
  });

  it('honours Retry-After as an HTTP-date', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 0, 15, 12, 0, 0));
    const { client, requests } = clientWith(
      failThenSucceed(1, () =>
        problemResponse(
          503,
          'service_unavailable',
          'later',
          {},
          {
            'Retry-After': new Date(Date.now() + 2_000).toUTCString(),
          },
        ),
      ),
    );
    const created = client.payments.create(createParams);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await created;
    expect(requests).toHaveLength(2);
  });

  it('does not wait for a Retry-After beyond the 60 s cap: it throws at once', async () => {
    const { client, requests } = clientWith(() =>
      problemResponse(429, 'rate_limited', 'much later', {}, { 'Retry-After': '3600' }),
    );
    const error = await client.payments.list().catch((caught) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterSeconds).toBe(3600);
    expect(requests).toHaveLength(1);
  });
});

/** A fetch that never answers, but rejects with the signal's reason when aborted. */
const hangingFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  new Promise<Response>((_resolve, reject) => {
    const { signal } = new Request(input, init);
    signal.addEventListener('abort', () => reject(signal.reason));
  })) as typeof globalThis.fetch;

describe('timeouts and cancellation', () => {
  it('fails an attempt with a TimeoutError after the per-request timeout, and retries it', async () => {
    let calls = 0;
    const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      calls += 1;
      return hangingFetch(input, init);
    }) as typeof globalThis.fetch;
    vi.useFakeTimers();
    const client = createClient({ apiKey, baseUrl: 'http://sandbox.test', fetch });
    const pending = client.payments
      .list(undefined, { timeout: 50, maxRetries: 1 })
      .catch((caught) => caught);
    await vi.advanceTimersByTimeAsync(49);
    expect(calls).toBe(1);
    await vi.runAllTimersAsync();
    const error = await pending;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.code).toBe('timeout');
    expect(error.attempts).toBe(2);
    expect(calls).toBe(2);
  });

  it('uses the client’s timeout', async () => {
    vi.useFakeTimers();
    const client = createClient({
      apiKey,
      baseUrl: 'http://sandbox.test',
      fetch: hangingFetch,
      timeout: 30,
      maxRetries: 0,
    });
    const pending = client.payments.list().catch((caught) => caught);
    await vi.advanceTimersByTimeAsync(30);
    expect(await pending).toBeInstanceOf(TimeoutError);
  });

  it('aborts an attempt in flight', async () => {
    const client = createClient({ apiKey, baseUrl: 'http://sandbox.test', fetch: hangingFetch });
    const controller = new AbortController();
    const pending = client.payments.list(undefined, { signal: controller.signal });
    await Promise.resolve();
    controller.abort(new Error('user left'));
    const error = await pending.catch((caught) => caught);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.cause).toEqual(new Error('user left'));
  });

  it('aborts a pending backoff at once, sending nothing more', async () => {
    const { client, requests } = clientWith(() =>
      problemResponse(503, 'service_unavailable', 'later', {}, { 'Retry-After': '30' }),
    );
    vi.useFakeTimers();
    const controller = new AbortController();
    const pending = client.payments
      .create(createParams, { signal: controller.signal })
      .catch((caught) => caught);
    await vi.advanceTimersByTimeAsync(50);
    expect(requests).toHaveLength(1);
    controller.abort();
    // No timer needs to run: the 30 s backoff ends with the abort.
    const error = await pending;
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.attempts).toBe(1);
    expect(requests).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { client, requests } = clientWith(() => jsonResponse(paymentFixture()));
    await expect(
      client.payments.list(undefined, { signal: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(AbortedError);
    expect(requests).toHaveLength(0);
  });
});

describe('observability', () => {
  it('logs each attempt without headers or secrets, masking keys found in bodies', async () => {
    const entries: RequestLogEntry[] = [];
    const { client } = clientWith(
      failThenSucceed(1, () =>
        problemResponse(
          500,
          'internal_error',
          `upstream rejected ${apiKey} and sk_live_other1`,
          {},
          noWait,
        ),
      ),
      { logger: (entry) => entries.push(entry) },
    );
    await client.payments.retrieve('pay_1');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      method: 'GET',
      path: '/v1/payments/pay_1',
      status: 500,
      requestId: 'req_problem1',
      attempt: 1,
      willRetry: true,
      code: 'internal_error',
      message: 'upstream rejected sk_test_… and sk_live_…',
    });
    expect(entries[1]).toMatchObject({ status: 201, attempt: 2, willRetry: false });
    for (const entry of entries) expect(entry.elapsedMs).toBeGreaterThanOrEqual(0);
    const logged = JSON.stringify(entries);
    expect(logged).not.toContain(secretPart);
    expect(logged.toLowerCase()).not.toContain('authorization');
  });

  it('masks keys echoed in error bodies in the thrown error', async () => {
    const { client } = clientWith(() =>
      problemResponse(400, 'invalid_request', `the key ${apiKey} was sent as a field`),
    );
    const error = await client.payments.create(createParams).catch((caught) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(JSON.stringify(error.problem)).not.toContain(secretPart);
    expect(error.message).not.toContain(secretPart);
    expect(error.message).toContain('sk_test_…');
  });

  it('sends a User-Agent naming the SDK version and the runtime', async () => {
    const { client, requests } = clientWith(() => jsonResponse(paymentFixture()));
    await client.payments.retrieve('pay_1');
    expect(requests[0]?.headers.get('User-Agent')).toBe(
      `payment-service-sdk/${sdkVersion} node/${process.versions.node}`,
    );
  });
});

describe('a lax Retry-After from a hostile server (issue 31, row 11)', () => {
  it.each(['-1', '+5', '5, 10', '60.5'])(
    'Retry-After: %s is not "retry now": the retry waits the exponential backoff (≥ 250 ms)',
    async (retryAfter) => {
      const arrivals: number[] = [];
      const server = await startHostileServer((_request, response, index) => {
        arrivals.push(Date.now());
        const status = index === 0 ? 503 : 200;
        const body = index === 0 ? { code: 'service_unavailable' } : paymentFixture();
        response
          .writeHead(status, { 'content-type': 'application/json', 'retry-after': retryAfter })
          .end(JSON.stringify(body));
      });
      try {
        const client = createClient({ apiKey, baseUrl: server.url, maxRetries: 1 });
        await expect(client.payments.retrieve('pay_1')).resolves.toEqual(paymentFixture());
        const [first = 0, second = 0] = arrivals;
        // The first backoff waits between half and all of 500 ms; "retry now" took ~1 ms.
        expect(second - first).toBeGreaterThanOrEqual(240);
      } finally {
        await server.close();
      }
    },
  );
});
