import { createTestSandbox } from '@payment-service/mock/testing';
import { describe, expect } from 'vitest';
import { createShop } from '../../src/app.js';
import { checkout, test } from './shop-fixture.js';

describe('checkout and the payment webhook', () => {
  test('a pending payment is paid once the sandbox clock passes its settlement', async ({
    sandbox,
    shop,
  }) => {
    const { status, body } = await checkout(shop, 'order-1', 'tok_test_pending');
    expect(status).toBe(201);
    expect(shop.orders.get('order-1')?.status).toBe('awaiting_payment');

    await sandbox.clock.advance(5_000);

    const event = await sandbox.webhooks.next({
      type: 'payment.succeeded',
      paymentId: body.paymentId,
    });
    expect(event.data.object.status).toBe('SUCCEEDED');
    expect(shop.orders.get('order-1')).toMatchObject({ status: 'paid', timesMarkedPaid: 1 });
  });

  test('a declined card leaves the order unpaid', async ({ sandbox, shop }) => {
    await checkout(shop, 'order-2', 'tok_test_declined');
    await sandbox.webhooks.settled();
    expect(shop.orders.get('order-2')?.status).toBe('payment_failed');
    expect((await sandbox.webhooks.next({ type: 'payment.failed' })).data.object.failure_code).toBe(
      'card_declined',
    );
  });

  test('a duplicated delivery marks the order paid once', async ({ sandbox, shop }) => {
    const { body } = await checkout(shop, 'order-3', 'tok_test_success');
    const event = await sandbox.webhooks.next({ paymentId: body.paymentId });
    await sandbox.webhooks.replay(event.id);
    await sandbox.webhooks.replay(event.id);
    expect(shop.orders.get('order-3')).toMatchObject({ status: 'paid', timesMarkedPaid: 1 });
  });

  test('the webhook endpoint refuses a forged delivery', async ({ shop }) => {
    const forged = await shop.app.request('/webhooks', {
      method: 'POST',
      headers: { 'webhook-id': 'evt_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,AAAA' },
      body: '{}',
    });
    expect(forged.status).toBe(400);
  });
});

test('a handler that answers 500 once gets the retry after the clock moves', async () => {
  await using sandbox = createTestSandbox({ seed: 'retry-after-500' });
  let secret = '';
  const shop = createShop({ payments: sandbox.client, webhookSecret: () => secret });
  let outages = 1;
  ({ secret } = await sandbox.webhooks.deliverTo(
    (request) => (outages-- > 0 ? new Response('down', { status: 500 }) : shop.app.fetch(request)),
    { url: 'http://shop.test/webhooks', events: ['payment.succeeded'] },
  ));
  // A waiter made before the action: it resolves once the shop accepted (2xx) the delivery.
  const handled = sandbox.webhooks.next({ type: 'payment.succeeded' });
  await checkout(shop, 'order-4', 'tok_test_success');
  await sandbox.webhooks.settled();
  expect(shop.orders.get('order-4')?.status).toBe('awaiting_payment');

  await sandbox.clock.advance(10_000); // the first retry is due 5 s (± 20 %) later

  expect((await handled).data.object.status).toBe('SUCCEEDED');
  expect(shop.orders.get('order-4')?.status).toBe('paid');
  const attempts = await sandbox.webhooks.deliveries();
  expect(attempts.map((attempt) => attempt.status)).toEqual([500, 204]);
});

test('duplicated and reordered deliveries (chaos mode) leave every order paid exactly once', async () => {
  await using sandbox = createTestSandbox({ seed: 'chaos', webhookDelivery: 'chaos' });
  let secret = '';
  const shop = createShop({ payments: sandbox.client, webhookSecret: () => secret });
  ({ secret } = await sandbox.webhooks.deliverTo(shop.app.fetch, {
    url: 'http://shop.test/webhooks',
  }));
  for (let index = 0; index < 10; index++)
    await checkout(shop, `order-${index}`, 'tok_test_pending');

  await sandbox.clock.advance(60_000);

  expect(shop.orders.all().map((order) => [order.status, order.timesMarkedPaid])).toEqual(
    Array.from({ length: 10 }, () => ['paid', 1]),
  );
  const attempts = await sandbox.webhooks.deliveries();
  expect(attempts.length).toBeGreaterThan(20); // 20 events, some of them sent twice
});
