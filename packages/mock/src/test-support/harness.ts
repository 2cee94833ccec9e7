// Test harness: a mock server on a manual clock and a small helper to call it in process.
import { type MockServer, mockServerOf } from '../app/mock-server.js';
import type { MockServerOptions } from '../app/options.js';
import { createRuntime, type RuntimeHooks } from '../app/runtime.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies loosely
export type JsonBody = Record<string, any>;

export const TEST_KEY = 'sk_test_harness_key_0001';

export interface ManualClock {
  now(): number;
  advance(ms: number): void;
}

export function manualClock(start = Date.UTC(2025, 0, 15, 12, 0, 0)): ManualClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
  };
}

export interface CallOptions {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  apiKey?: string | null;
}

export interface Harness {
  mock: MockServer;
  clock: ManualClock;
  call(method: string, path: string, options?: CallOptions): Promise<Response>;
  json(
    method: string,
    path: string,
    options?: CallOptions,
  ): Promise<{ status: number; headers: Headers; body: JsonBody }>;
  createPayment(fields?: Record<string, unknown>, options?: CallOptions): Promise<JsonBody>;
}

/** A harness on a manual clock; `hooks` choose the store seam (test-support/async-store.ts). */
export function createHarness(options: MockServerOptions = {}, hooks: RuntimeHooks = {}): Harness {
  const clock = manualClock();
  const mock = mockServerOf(createRuntime({ clock, ...options }, hooks));
  const call = (method: string, path: string, callOptions: CallOptions = {}) => {
    const headers: Record<string, string> = { ...callOptions.headers };
    const apiKey = callOptions.apiKey === undefined ? TEST_KEY : callOptions.apiKey;
    if (apiKey !== null && headers.authorization === undefined) {
      headers.authorization = `Bearer ${apiKey}`;
    }
    let body: string | undefined = callOptions.rawBody;
    if (callOptions.body !== undefined) {
      body = JSON.stringify(callOptions.body);
      headers['content-type'] ??= 'application/json';
    }
    return mock.fetch(
      new Request(`http://sandbox.test${path}`, { method, headers, body: body ?? null }),
    );
  };
  const json: Harness['json'] = async (method, path, callOptions) => {
    const response = await call(method, path, callOptions);
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : {},
    };
  };
  return {
    mock,
    clock,
    call,
    json,
    async createPayment(fields = {}, callOptions = {}) {
      const result = await json('POST', '/v1/payments', {
        ...callOptions,
        body: {
          amount: 1000,
          currency: 'KZT',
          payment_method: { type: 'token', token: 'tok_test_success' },
          ...fields,
        },
      });
      if (result.status !== 201) throw new Error(`create failed: ${JSON.stringify(result.body)}`);
      return result.body;
    },
  };
}

export const validCreateBody = {
  amount: 1000,
  currency: 'KZT',
  description: 'Order 42',
  payment_method: { type: 'token', token: 'tok_test_success' },
};
