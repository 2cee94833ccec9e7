// The same shop under jest: a sandbox per test from beforeEach, closed in afterEach.
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { createTestSandbox, type TestSandbox } from '@payment-service/mock/testing';
import { createShop } from '../../src/app.js';

describe('checkout and the payment webhook (jest)', () => {
  let sandbox: TestSandbox;
  let shop: ReturnType<typeof createShop>;
  let outages = 0;

  beforeEach(async () => {
    sandbox = createTestSandbox({ seed: expect.getState().currentTestName ?? 'jest' });
    let secret = '';
    shop = createShop({ payments: sandbox.client, webhookSecret: () => secret });
    outages = 0;
    ({ secret } = await sandbox.webhooks.deliverTo(
      (request) => (outages-- > 0 ? new Response(null, { status: 500 }) : shop.app.fetch(request)),
      { url: 'http://shop.test/webhooks' },
    ));
  });
  afterEach(() => sandbox.close());

  const checkout = async (orderId: string, token: string) => {
    const response = await shop.app.request('/checkout', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, amount: 150_000, currency: 'KZT', token }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { paymentId: string };
  };

  test('a pending payment is paid once the sandbox clock passes its settlement', async () => {
    const { paymentId } = await checkout('order-1', 'tok_test_pending');
    expect(shop.orders.get('order-1')?.status).toBe('awaiting_payment');
    await sandbox.clock.advance(5_000);
    const event = await sandbox.webhooks.next({ type: 'payment.succeeded', paymentId });
    expect(event.data.object.status).toBe('SUCCEEDED');
    expect(shop.orders.get('order-1')).toMatchObject({ status: 'paid', timesMarkedPaid: 1 });
  });

  test('a handler that answers 500 once gets the retry after the clock moves', async () => {
    outages = 1;
    // A waiter made before the action: it resolves once the shop accepted (2xx) the delivery.
    const handled = sandbox.webhooks.next({ type: 'payment.succeeded' });
    await checkout('order-2', 'tok_test_success');
    await sandbox.webhooks.settled();
    expect(shop.orders.get('order-2')?.status).toBe('awaiting_payment');
    await sandbox.clock.advance(10_000);
    expect((await handled).data.object.status).toBe('SUCCEEDED');
    expect(shop.orders.get('order-2')?.status).toBe('paid');
  });
});
