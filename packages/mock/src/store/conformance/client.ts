// HTTP calls of the conformance suite: one key's requests to a sandbox, and answers as comparable text.
import type { Sandbox } from './sandbox.js';

// biome-ignore lint/suspicious/noExplicitAny: the suite reads answer bodies loosely
export type Body = Record<string, any>;

/** One answer: its status, the headers a store could change, and its body as sent. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: Body;
}

/** A request's extras: a JSON body (or text sent as JSON), an Idempotency-Key, other headers. */
export interface Send {
  body?: unknown;
  /** Sent as is with `Content-Type: application/json` (not JSON, or cut). */
  rawBody?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

let keys = 0;

/**
 * A new sandbox key, never used before in this process.
 *
 * @example
 * newKey('reset'); // 'sk_test_conformance_reset_4242_1'
 */
export function newKey(name: string): string {
  return `sk_test_conformance_${name}_${process.pid}_${++keys}`;
}

/**
 * Sends one request of `key` to the sandbox, in process.
 *
 * @example
 * const created = await call(sandbox, key, 'POST', '/v1/payments', { body: CREATE });
 */
export async function call(
  sandbox: Sandbox,
  key: string,
  method: string,
  path: string,
  send: Send = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...send.headers, authorization: `Bearer ${key}` };
  const sent = send.body === undefined ? send.rawBody : JSON.stringify(send.body);
  if (sent !== undefined) headers['content-type'] = 'application/json';
  if (send.idempotencyKey !== undefined) headers['idempotency-key'] = send.idempotencyKey;
  const response = await sandbox.mock.fetch(`http://sandbox.test${path}`, {
    method,
    headers,
    ...(sent === undefined ? {} : { body: sent }),
  });
  const text = await response.text();
  let body: Body = {};
  if (text !== '') body = JSON.parse(text) as Body;
  return { status: response.status, headers: response.headers, text, body };
}

/** A create of 1000 KZT with a token that succeeds; `fields` override it. */
export function createBody(fields: Body = {}): Body {
  return {
    amount: 1000,
    currency: 'KZT',
    payment_method: { type: 'token', token: 'tok_test_success' },
    ...fields,
  };
}

/**
 * Creates a payment and returns it; throws with the answer when it is not a 201.
 *
 * @example
 * const payment = await createPayment(sandbox, key, { capture: false });
 */
export async function createPayment(
  sandbox: Sandbox,
  key: string,
  fields: Body = {},
  idempotencyKey?: string,
): Promise<Body> {
  const answer = await call(sandbox, key, 'POST', '/v1/payments', {
    body: createBody(fields),
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });
  if (answer.status !== 201) throw new Error(`create answered ${answer.status}: ${answer.text}`);
  return answer.body;
}

/** The ids of the key's payments, newest first (the first page of 100). */
export async function paymentIds(sandbox: Sandbox, key: string): Promise<string[]> {
  const listed = await call(sandbox, key, 'GET', '/v1/payments?limit=100');
  if (listed.status !== 200) throw new Error(`list answered ${listed.status}: ${listed.text}`);
  return (listed.body.data as Array<{ id: string }>).map((payment) => payment.id);
}

/** Moves the key's sandbox clock forward (settles and runs what came due); returns its answer. */
export async function advance(sandbox: Sandbox, key: string, seconds: number): Promise<Body> {
  const answer = await call(sandbox, key, 'POST', '/_sandbox/clock/advance', {
    body: { seconds },
  });
  if (answer.status !== 200) throw new Error(`advance answered ${answer.status}: ${answer.text}`);
  await sandbox.mock.webhooksSettled();
  return answer.body;
}

/**
 * An answer as one line, the same on every store for the same requests: status, the headers a
 * client reads, the body, with the per-request id (random by design) masked.
 *
 * @example
 * line('GET /v1/payments', answer); // 'GET /v1/payments → 200 {…}'
 */
export function line(request: string, answer: Answer): string {
  const headers = ['idempotent-replayed', 'retry-after', 'location']
    .map((name) => [name, answer.headers.get(name)] as const)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => ` ${name}=${value}`)
    .join('');
  const text = answer.text.replace(/req_[A-Za-z0-9]{20}/g, 'req_<masked>');
  return `${request} → ${answer.status}${headers} ${text}`;
}
