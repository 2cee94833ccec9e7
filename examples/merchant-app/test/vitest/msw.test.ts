import { createTestSandbox } from '@payment-service/mock/testing';
import { paymentServiceHandlers } from '@payment-service/mock/testing/msw';
import { createClient } from '@payment-service/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createShop } from '../../src/app.js';

// A project that already intercepts the network with MSW: the provider's URL answers from the sandbox.
const providerUrl = 'https://api.payments.example';
const sandbox = createTestSandbox({ seed: 'msw' });
const server = setupServer(...paymentServiceHandlers(sandbox, { baseUrl: providerUrl }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => {
  server.close();
  await sandbox.close();
});

test('the shop, configured with the provider URL as in production, gets a 201 from the sandbox', async () => {
  const payments = createClient({ apiKey: sandbox.apiKey, baseUrl: providerUrl });
  const shop = createShop({
    payments,
    webhookSecret: () => 'whsec_dW51c2VkLXNlY3JldC1vZi0yNi1ieXRlcw==',
  });
  const response = await shop.app.request('/checkout', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      orderId: 'order-msw',
      amount: 1000,
      currency: 'KZT',
      token: 'tok_test_success',
    }),
  });
  expect(response.status).toBe(201);
  const { paymentId } = (await response.json()) as { paymentId: string };

  const direct = await fetch(`${providerUrl}/v1/payments/${paymentId}`, {
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
  });
  expect(direct.status).toBe(200);
  expect((await direct.json()).status).toBe('SUCCEEDED');
});
