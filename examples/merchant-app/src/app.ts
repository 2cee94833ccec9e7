// The shop: POST /checkout pays an order with the payment service; POST /webhooks marks it paid, idempotently.
import {
  type PaymentServiceClient,
  WebhookVerificationError,
  webhooks,
} from '@payment-service/sdk';
import { Hono } from 'hono';
import { createOrderStore, type OrderStore } from './orders.js';

/** What the shop needs: a payment service client and its webhook endpoint's secret. */
export interface ShopOptions {
  payments: PaymentServiceClient;
  /** The `whsec_…` secret of the shop's webhook endpoint (read when a delivery arrives). */
  webhookSecret: () => string;
}

/**
 * The shop's HTTP app. Checkout creates the payment and leaves the order awaiting payment: only
 * a verified `payment.succeeded` webhook marks it paid (the provider advises not to rely on the
 * create response alone). Webhooks come at least once and in any order, so each event is handled
 * once (by its id) and a paid order never goes back.
 *
 * @example
 * const shop = createShop({ payments: createClient({ apiKey, baseUrl }), webhookSecret: () => secret });
 * serve({ fetch: shop.app.fetch, port: 3000 });
 */
export function createShop(options: ShopOptions): { app: Hono; orders: OrderStore } {
  const orders = createOrderStore();
  const handledEvents = new Set<string>();
  const app = new Hono();

  app.post('/checkout', async (c) => {
    const { orderId, amount, currency, token } = await c.req.json<{
      orderId: string;
      amount: number;
      currency: string;
      token: string;
    }>();
    const order = orders.get(orderId) ?? orders.add({ id: orderId, amount, currency });
    const payment = await options.payments.payments.create(
      {
        amount,
        currency,
        description: `Order ${orderId}`,
        payment_method: { type: 'token', token },
      },
      { idempotencyKey: `checkout-${orderId}` },
    );
    order.paymentId = payment.id;
    if (payment.status === 'FAILED') order.status = 'payment_failed';
    return c.json({ orderId, paymentId: payment.id, paymentStatus: payment.status }, 201);
  });

  app.get('/orders/:id', (c) => {
    const order = orders.get(c.req.param('id'));
    return order === undefined ? c.json({ error: 'no such order' }, 404) : c.json(order);
  });

  app.post('/webhooks', async (c) => {
    let event: Awaited<ReturnType<typeof webhooks.verify>>;
    try {
      event = await webhooks.verify(await c.req.text(), c.req.raw.headers, options.webhookSecret());
    } catch (error) {
      if (error instanceof WebhookVerificationError) return c.json({ error: error.code }, 400);
      throw error;
    }
    if (handledEvents.has(event.id)) return c.body(null, 204); // a duplicate delivery
    const order = orders.byPayment(event.data.object.id);
    // Not ours yet (the webhook can beat the checkout's own bookkeeping): answer an error, it is retried.
    if (order === undefined) return c.json({ error: 'unknown payment' }, 404);
    if (event.type === 'payment.succeeded' && order.status !== 'paid') {
      order.status = 'paid';
      order.timesMarkedPaid++;
    }
    // A late payment.failed or payment.pending never takes a paid order back.
    if (event.type === 'payment.failed' && order.status === 'awaiting_payment') {
      order.status = 'payment_failed';
    }
    handledEvents.add(event.id);
    return c.body(null, 204);
  });

  return { app, orders };
}
