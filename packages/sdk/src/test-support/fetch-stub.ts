// Test support: an injected fetch that records each request and answers with canned responses.
import type { Payment } from '../types.js';

/** One request the stub received, with its body already read. */
export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string | null;
}

/** What the stub answers: a Response, or a function of the request and its position. */
export type StubAnswer =
  | Response
  | ((request: RecordedRequest, index: number) => Response | Promise<Response>);

/**
 * A fetch stub: pass `stub.fetch` to createClient, then inspect `stub.requests`.
 *
 * @example
 * const stub = createFetchStub(() => jsonResponse(paymentFixture()));
 * createClient({ apiKey: 'sk_test_1', baseUrl: 'http://sandbox.test', fetch: stub.fetch });
 */
export function createFetchStub(answer: StubAnswer) {
  const requests: RecordedRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const recorded: RecordedRequest = {
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: request.body === null ? null : await request.text(),
    };
    requests.push(recorded);
    return typeof answer === 'function' ? answer(recorded, requests.length - 1) : answer.clone();
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

/**
 * A JSON response, 200 unless told.
 *
 * @example
 * jsonResponse({ ok: true }, 201);
 */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Request-Id': 'req_test1', ...headers },
  });
}

/**
 * An RFC 9457 problem response as the spec models it.
 *
 * @example
 * problemResponse(404, 'not_found', 'No payment pay_x belongs to this key.');
 */
export function problemResponse(
  status: number,
  code: string,
  detail: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const body = {
    type: `urn:payment-service:problem:${code}`,
    title: code,
    status,
    detail,
    code,
    request_id: 'req_problem1',
    ...extra,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/problem+json',
      'Request-Id': 'req_problem1',
      ...headers,
    },
  });
}

/**
 * A valid payment, with fields overridden as given.
 *
 * @example
 * paymentFixture({ status: 'AUTHORIZED' });
 */
export function paymentFixture(overrides: Partial<Payment> = {}): Payment {
  return {
    id: 'pay_1',
    object: 'payment',
    status: 'SUCCEEDED',
    amount: 150000,
    currency: 'KZT',
    created_at: '2025-01-02T03:04:05Z',
    capture: true,
    description: null,
    amount_captured: 150000,
    amount_refunded: 0,
    failure_code: null,
    failure_message: null,
    ...overrides,
  };
}
