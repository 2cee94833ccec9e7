// The one request every server is measured with: a create body, a test key and the answer checks.

import type { LoadSpec } from './load/index.js';

/** How many API keys the creates under load are spread over (each key is its own account). */
export const BENCH_KEYS = 1_000;

/** The prefix of the keys creates are spread over: `sk_test_bench_key_0000` … `sk_test_bench_key_0999`. */
export const BENCH_KEY_PREFIX = 'sk_test_bench_key_';

/**
 * The `index`-th API key of the load (the load tools build the same names).
 *
 * @example
 * benchApiKey(7); // 'sk_test_bench_key_0007'
 */
export function benchApiKey(index: number): string {
  return `${BENCH_KEY_PREFIX}${String(index).padStart(4, '0')}`;
}

/**
 * The API key of the probes, the retrieves and the SDK runs: the load's first key. Once the
 * creates of 1,000 keys have filled the mock (its caps and budgets), a new key is refused (503
 * `sandbox_full`, fair to the keys already in), while a key of the load still makes payments.
 */
export const BENCH_API_KEY = benchApiKey(0);

/** The create body, the same for every server and every request. */
export const CREATE_BODY = {
  amount: 150_000,
  currency: 'KZT',
  capture: true,
  description: 'Benchmark order',
  payment_method: { type: 'token', token: 'tok_test_success' },
} as const;

/** The create body as sent on the wire. */
export const CREATE_BODY_TEXT = JSON.stringify(CREATE_BODY);

/** Headers of a create, without its Idempotency-Key. */
export const CREATE_HEADERS: Readonly<Record<string, string>> = {
  authorization: `Bearer ${BENCH_API_KEY}`,
  'content-type': 'application/json',
};

/** Headers of a retrieve. */
export const RETRIEVE_HEADERS: Readonly<Record<string, string>> = {
  authorization: `Bearer ${BENCH_API_KEY}`,
};

/**
 * Whether a parsed body looks like the payment of our create request (an answer is "correct").
 * Prism answers a schema-shaped example, so only the object kind and field types are required.
 *
 * @example
 * isPaymentBody({ id: 'pay_1', object: 'payment', status: 'SUCCEEDED', amount: 1, currency: 'KZT', created_at: '…' }); // true
 */
export function isPaymentBody(body: unknown): body is { id: string; object: 'payment' } {
  if (typeof body !== 'object' || body === null) return false;
  const payment = body as Record<string, unknown>;
  return (
    payment.object === 'payment' &&
    typeof payment.id === 'string' &&
    typeof payment.status === 'string' &&
    typeof payment.amount === 'number' &&
    typeof payment.currency === 'string' &&
    typeof payment.created_at === 'string'
  );
}

/** Headers of a create under load: the key comes from the load tool (one of `BENCH_KEYS`). */
const CREATE_LOAD_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
};

/**
 * The load of `POST /v1/payments` against a server: the create body, a unique Idempotency-Key per
 * request, the requests spread over `BENCH_KEYS` API keys in turn.
 *
 * @example
 * await tool.run(createLoadSpec('http://127.0.0.1:4010', 50, 8));
 */
export function createLoadSpec(
  baseUrl: string,
  connections: number,
  durationSeconds: number,
): LoadSpec {
  return {
    baseUrl,
    method: 'POST',
    path: '/v1/payments',
    headers: CREATE_LOAD_HEADERS,
    body: CREATE_BODY_TEXT,
    uniqueIdempotencyKey: true,
    apiKeys: BENCH_KEYS,
    connections,
    durationSeconds,
  };
}
