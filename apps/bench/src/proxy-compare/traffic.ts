// The traffic of the proxy comparison: six SDK-like exchanges, sent one after another through a proxy, each answer kept whole.
import { randomUUID } from 'node:crypto';

/** The test key of the comparison's app. */
export const TEST_KEY = 'sk_test_proxy_compare_1';
/** A live key, which the app must never send to a sandbox. */
export const LIVE_KEY = 'sk_live_proxy_compare_1';
/** A payment id of the right shape that no target holds. */
export const UNKNOWN_ID = 'pay_doesNotExist0000000000';

/** One exchange of the traffic: what the app sends. */
export interface Exchange {
  /** What the exchange is, for the table's first column. */
  label: string;
  method: 'GET' | 'POST';
  /** The path, given the id of a payment the target has made SUCCEEDED. */
  path(succeededId: string): string;
  key: string;
  body?: unknown;
}

const payment = (amount: number, capture: boolean) => ({
  amount,
  currency: 'KZT',
  capture,
  description: 'Order #1001',
  payment_method: { type: 'token', token: 'tok_test_success' },
});

/** The six exchanges, in the order they are sent. */
export const EXCHANGES: readonly Exchange[] = [
  {
    label: 'valid create (capture: false → AUTHORIZED, no drift)',
    method: 'POST',
    path: () => '/v1/payments',
    key: TEST_KEY,
    body: payment(150_000, false),
  },
  {
    label: "create with amount -500 (the app's mistake)",
    method: 'POST',
    path: () => '/v1/payments',
    key: TEST_KEY,
    body: payment(-500, true),
  },
  {
    label: 'retrieve a captured payment (the target answers status COMPLETED for SUCCEEDED)',
    method: 'GET',
    path: (id) => `/v1/payments/${id}`,
    key: TEST_KEY,
  },
  {
    label: 'create and capture (the target answers COMPLETED where §3 documents SUCCEEDED)',
    method: 'POST',
    path: () => '/v1/payments',
    key: TEST_KEY,
    body: payment(150_000, true),
  },
  {
    label: 'retrieve an unknown id (404)',
    method: 'GET',
    path: () => `/v1/payments/${UNKNOWN_ID}`,
    key: TEST_KEY,
  },
  {
    label: 'retrieve with an sk_live_ key',
    method: 'GET',
    path: (id) => `/v1/payments/${id}`,
    key: LIVE_KEY,
  },
];

/** What came back for one exchange. */
export interface Answer {
  status: number;
  /** Prism's `sl-violations` header, when present. */
  violations?: string;
  body: string;
}

/**
 * Sends one exchange the way the SDK does (bearer key, JSON, an Idempotency-Key on POST) and
 * reads the whole answer.
 *
 * @example
 * const answer = await sendExchange('http://127.0.0.1:4020', EXCHANGES[0], 'pay_1');
 * answer.status; // 201
 */
export async function sendExchange(
  baseUrl: string,
  exchange: Exchange,
  succeededId: string,
): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${exchange.key}`,
    accept: 'application/json',
  };
  if (exchange.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['idempotency-key'] = randomUUID();
  }
  const response = await fetch(`${baseUrl}${exchange.path(succeededId)}`, {
    method: exchange.method,
    headers,
    ...(exchange.body !== undefined ? { body: JSON.stringify(exchange.body) } : {}),
  });
  const violations = response.headers.get('sl-violations') ?? undefined;
  return {
    status: response.status,
    ...(violations !== undefined ? { violations } : {}),
    body: await response.text(),
  };
}
