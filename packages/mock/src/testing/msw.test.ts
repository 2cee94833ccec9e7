import { createClient } from '@payment-service/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../app/mock-server.js';
import { paymentServiceHandlers } from './msw.js';
import { createTestSandbox } from './sandbox.js';

const sandbox = createTestSandbox({ seed: 'msw' });
const mock = createMockServer();
const server = setupServer(
  ...paymentServiceHandlers(sandbox, { baseUrl: 'https://api.payments.test/gateway' }),
  ...paymentServiceHandlers(mock, { baseUrl: 'https://other.payments.test' }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(async () => {
  server.close();
  await sandbox.close();
  mock.close();
});

const body = {
  amount: 1000,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_success' },
} as const;

describe('paymentServiceHandlers', () => {
  it('answers the code’s own fetch to the provider URL from the stateful sandbox', async () => {
    const created = await fetch('https://api.payments.test/gateway/v1/payments', {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(created.status).toBe(201);
    const payment = await created.json();
    const found = await sandbox.client.payments.retrieve(payment.id);
    expect(found.status).toBe('SUCCEEDED');
    const unknown = await fetch('https://api.payments.test/gateway/v1/nope', {
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers the SDK pointed at the provider URL, and serves a mock server too', async () => {
    const client = createClient({
      apiKey: sandbox.apiKey,
      baseUrl: 'https://api.payments.test/gateway',
    });
    const payment = await client.payments.create({ ...body, capture: false });
    expect(payment.status).toBe('AUTHORIZED');
    const other = createClient({
      apiKey: 'sk_test_msw_other_key',
      baseUrl: 'https://other.payments.test',
    });
    expect((await other.payments.list()).data).toEqual([]);
  });

  it('refuses a base URL it cannot use', () => {
    expect(() => paymentServiceHandlers(mock)).toThrow('baseUrl is required');
    expect(() => paymentServiceHandlers(mock, { baseUrl: '/relative' })).toThrow(
      'baseUrl must be an absolute URL; got /relative',
    );
  });
});
