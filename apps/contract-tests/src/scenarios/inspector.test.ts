// The console inspector's snapshot: what a key's code sent and got, its payments' timelines and its webhooks, for that key only.

import { startWebhookReceiver, type WebhookReceiver } from '@payment-service/sdk/node';
import { describe, expect, it, vi } from 'vitest';
import { targetNames } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

describe.each(targetNames())('inspector snapshot (%s)', (name) => {
  const ctx = useTarget(name);

  it('shows a pending payment settling, its payment.succeeded delivery, and the requests that did it', async () => {
    const apiKey = ctx.newApiKey();
    const client = ctx.client(apiKey);
    const controls = ctx.controls(apiKey);
    let receiver: WebhookReceiver | undefined;
    try {
      receiver = await startWebhookReceiver({ answer: () => 200 });
      const endpoint = await client.webhookEndpoints.create({ url: receiver.url });
      receiver.secret = endpoint.secret;
      const payment = await client.payments.create({
        amount: 2_500,
        currency: 'KZT',
        payment_method: { type: 'token', token: 'tok_test_pending' },
      });
      await controls.advanceClock(60);
      const snapshot = await vi.waitFor(
        async () => {
          const body = await controls.inspector();
          const succeeded = body.events.find((event) => event.type === 'payment.succeeded');
          expect(succeeded?.deliveries[0]?.status).toBe(200);
          return body;
        },
        { timeout: 5000 },
      );
      const [inspected] = snapshot.payments;
      expect(inspected?.payment).toMatchObject({ id: payment.id, status: 'SUCCEEDED' });
      expect(inspected?.timeline.map((step) => `${step.change} ${step.status}`)).toEqual([
        'created PENDING',
        'settled SUCCEEDED',
      ]);
      expect(
        snapshot.requests.map((request) => `${request.method} ${request.path} ${request.status}`),
      ).toEqual([
        'POST /_sandbox/clock/advance 200',
        'POST /v1/payments 201',
        'POST /v1/webhook_endpoints 201',
      ]);
      expect(JSON.stringify(snapshot)).not.toContain(endpoint.secret);
      expect(JSON.stringify(snapshot)).not.toContain(apiKey);
      // Another key sees nothing of it.
      const other = await ctx.controls(ctx.newApiKey()).inspector();
      expect(other).toMatchObject({ requests: [], payments: [], events: [] });
    } finally {
      await receiver?.close();
    }
  });
});
