// Webhooks end to end through the SDK's helpers: a receiver (startWebhookReceiver) registered through the SDK gets exactly the expected signed events, verified and deduplicated, retried until it is back; registration's idempotency as the SDK's IdempotencyError. Registration, listing without the secret, deletion, payment.succeeded and the authorize → capture → refund events are @payment-service/contract's checks, run in contract-check.test.ts.
import type { CreatePaymentParams, WebhookEvent } from '@payment-service/sdk';
import {
  IdempotencyError,
  InvalidRequestError,
  WebhookSignatureError,
  WebhookTimestampError,
  webhooks,
} from '@payment-service/sdk';
import {
  startWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from '@payment-service/sdk/node';
import { afterEach, describe, expect, it } from 'vitest';
import { targetNames } from '../harness/targets.js';
import { type TargetContext, useTarget } from '../harness/use-target.js';

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

function params(token: string, capture = true): CreatePaymentParams {
  return { amount: 5_000, currency: 'KZT', capture, payment_method: { type: 'token', token } };
}

/** A fresh key with a receiver registered through the API. */
async function subscribed(ctx: TargetContext, options: WebhookReceiverOptions = {}) {
  const apiKey = ctx.newApiKey();
  const client = ctx.client(apiKey);
  const receiver = await startWebhookReceiver(options);
  receivers.push(receiver);
  const endpoint = await client.webhookEndpoints.create({ url: receiver.url });
  receiver.secret = endpoint.secret;
  return { apiKey, client, controls: ctx.controls(apiKey), receiver, endpoint };
}

/** The verified, deduplicated event types of one payment, in arrival order. */
function typesOf(receiver: WebhookReceiver, paymentId: string): string[] {
  return receiver
    .events()
    .filter((event) => event.data.object.id === paymentId)
    .map((event) => event.type);
}

/** Resolves once the mock has no webhook attempt in flight or due now: nothing more arrives unless time moves. */
async function settled(ctx: TargetContext): Promise<void> {
  const { webhooksSettled } = ctx.target;
  if (webhooksSettled === undefined)
    throw new Error('only the mock can tell that webhooks settled');
  await webhooksSettled();
}

describe.each(targetNames())('webhooks (%s)', (name) => {
  const ctx = useTarget(name);

  it('throws an InvalidRequestError whose problem lists every bad field of a registration', async () => {
    const error = await ctx
      .client()
      .webhookEndpoints.create({
        url: 'mailto:ops@shop.test',
        events: ['payment.teleported' as 'payment.succeeded'],
      })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.status).toBe(400);
    expect(error.problem.errors.map((each: { param: string }) => each.param).sort()).toEqual([
      'events.0',
      'url',
    ]);
  });

  it('replays a registration for the same idempotencyKey, and a reused or in-flight key is an IdempotencyError', async () => {
    const apiKey = ctx.newApiKey();
    const client = ctx.client(apiKey);
    const idempotencyKey = `endpoint-${crypto.randomUUID()}`;
    const first = await client.webhookEndpoints.create(
      { url: 'http://127.0.0.1:9/a' },
      { idempotencyKey },
    );
    const replay = await client.webhookEndpoints.create(
      { url: 'http://127.0.0.1:9/a' },
      { idempotencyKey },
    );
    expect(replay).toEqual(first);
    const reused = await client.webhookEndpoints
      .create({ url: 'http://127.0.0.1:9/b' }, { idempotencyKey })
      .catch((caught) => caught);
    expect(reused).toBeInstanceOf(IdempotencyError);
    expect(reused).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    await ctx.controls(apiKey).setFaults({ latency_ms: 300 });
    // Sent together without retries: whichever arrives first holds the key for the 300 ms of latency.
    const inFlight = { idempotencyKey: `endpoint-${crypto.randomUUID()}`, maxRetries: 0 };
    const outcomes = await Promise.allSettled([
      client.webhookEndpoints.create({ url: 'http://127.0.0.1:9/a' }, inFlight),
      client.webhookEndpoints.create({ url: 'http://127.0.0.1:9/a' }, inFlight),
    ]);
    const refused = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [outcome.reason] : [],
    );
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(IdempotencyError);
    expect(refused[0]).toMatchObject({ status: 409, code: 'idempotency_key_in_use' });
  });

  it.each([
    {
      scenario: 'declined',
      steps: [],
      token: 'tok_test_declined',
      capture: true,
      expected: ['payment.failed'],
    },
    {
      scenario: 'authorize, cancel',
      steps: ['cancel'],
      token: 'tok_test_success',
      capture: false,
      expected: ['payment.authorized', 'payment.canceled'],
    },
    {
      scenario: 'pending, settles succeeded',
      steps: ['advance'],
      token: 'tok_test_pending',
      capture: true,
      expected: ['payment.pending', 'payment.succeeded'],
    },
    {
      scenario: 'pending, settles authorized',
      steps: ['advance'],
      token: 'tok_test_pending',
      capture: false,
      expected: ['payment.pending', 'payment.authorized'],
    },
    {
      scenario: 'pending, settles failed',
      steps: ['advance'],
      token: 'tok_test_pending_declined',
      capture: true,
      expected: ['payment.pending', 'payment.failed'],
    },
  ])(
    '$scenario: exactly $expected, each signature verified',
    async ({ steps, token, capture, expected }) => {
      const { client, controls, receiver } = await subscribed(ctx);
      const payment = await client.payments.create(params(token, capture));
      let changes = 1; // the create's own status
      for (const step of steps) {
        // Wait for the events so far, so arrival order is the order of the changes.
        const sent = changes;
        await receiver.waitFor(() => receiver.events().length >= sent);
        if (step === 'capture') await client.payments.capture(payment.id);
        if (step === 'cancel') await client.payments.cancel(payment.id);
        if (step === 'refund-part') await client.refunds.create(payment.id, { amount: 1_000 });
        if (step === 'refund-rest') await client.refunds.create(payment.id);
        if (step === 'advance') await controls.advanceClock(5);
        if (step !== 'refund-part') changes++; // a partial refund changes no status
      }
      await receiver.waitFor(() => typesOf(receiver, payment.id).length >= expected.length);
      await settled(ctx);
      expect(typesOf(receiver, payment.id)).toEqual(expected);
      expect(receiver.received).toHaveLength(expected.length);
      expect(receiver.refused.count).toBe(0);
      for (const delivery of receiver.received) {
        expect(delivery.webhookId).toBe(delivery.event.id);
      }
      const last = receiver.events().at(-1) as WebhookEvent;
      expect(last.data.object).toEqual(await client.payments.retrieve(payment.id));
    },
  );

  it('fails verification for a tampered body, an old timestamp and a wrong secret', async () => {
    const { client, receiver } = await subscribed(ctx);
    const other = await client.webhookEndpoints.create({ url: 'http://127.0.0.1:9/other' });
    await client.payments.create(params('tok_test_success'));
    await receiver.waitFor(() => receiver.events().length === 1);
    const [delivery] = receiver.received;
    if (delivery === undefined || receiver.secret === undefined) throw new Error('no delivery');
    const { rawBody, headers } = delivery;
    const secret = receiver.secret;
    expect((await webhooks.verify(rawBody, headers, secret)).type).toBe('payment.succeeded');
    const tampered = rawBody.replace('"amount":5000', '"amount":1');
    expect(tampered).not.toBe(rawBody);
    await expect(webhooks.verify(tampered, headers, secret)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    const sixMinutesLater = (Number(headers['webhook-timestamp']) + 360) * 1000;
    await expect(
      webhooks.verify(rawBody, headers, secret, { now: () => sixMinutesLater }),
    ).rejects.toBeInstanceOf(WebhookTimestampError);
    await expect(webhooks.verify(rawBody, headers, other.secret)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
  });

  it('a receiver answering 503 gets every event once it is back, exactly once after dedup', async () => {
    let down = true;
    const { client, controls, receiver } = await subscribed(ctx, {
      answer: () => (down ? 503 : 200),
    });
    const created = [];
    for (const token of ['tok_test_success', 'tok_test_declined', 'tok_test_success']) {
      created.push(await client.payments.create(params(token)));
    }
    // Advance only once the mock has logged the failures, so their retries are already scheduled.
    const logged = async () => (await controls.listWebhookDeliveries()).data.length;
    await expect.poll(logged).toBe(3);
    await controls.advanceClock(10); // first retry (5 s ± 20%) comes due: still down
    await expect.poll(logged).toBe(6);
    const log = await controls.listWebhookDeliveries();
    expect(log.data.every((entry) => entry.status === 503)).toBe(true);
    expect(log.data.every((entry) => entry.next_retry_at !== null)).toBe(true);
    down = false;
    await controls.advanceClock(60); // second retry (30 s ± 20%)
    await receiver.waitFor(() => receiver.events().length === 3);
    // Deliver one again, as at-least-once allows: deduplication keeps it once.
    const firstEvent = receiver.events()[0] as WebhookEvent;
    expect((await controls.redeliverEvent(firstEvent.id)).endpoints).toBe(1);
    await receiver.waitFor(() => receiver.received.length === 10);
    await settled(ctx);
    const events = receiver.events();
    expect(events.map((event) => event.data.object.id).sort()).toEqual(
      created.map((payment) => payment.id).sort(),
    );
    expect(events.map((event) => event.type).sort()).toEqual([
      'payment.failed',
      'payment.succeeded',
      'payment.succeeded',
    ]);
    const attempts = (await controls.listWebhookDeliveries(firstEvent.id)).data;
    expect(attempts.map((entry) => [entry.attempt, entry.status])).toEqual([
      [1, 200],
      [3, 200],
      [2, 503],
      [1, 503],
    ]);
  });

  it('a receiver that is down (connection refused) gets the event once it listens again', async () => {
    const { client, controls, receiver } = await subscribed(ctx);
    await receiver.stop();
    const payment = await client.payments.create(params('tok_test_pending'));
    await expect
      .poll(async () => (await controls.listWebhookDeliveries()).data[0]?.error ?? '', {
        timeout: 5000,
      })
      .toMatch(/^connection_error/);
    await receiver.reopen();
    await controls.advanceClock(10); // the retry of payment.pending, and settlement
    await receiver.waitFor(() => typesOf(receiver, payment.id).length === 2);
    expect(typesOf(receiver, payment.id).sort()).toEqual(['payment.pending', 'payment.succeeded']);
  });

  it('410 Gone disables the endpoint: nothing more is sent to it', async () => {
    const { client, receiver, endpoint } = await subscribed(ctx, { answer: () => 410 });
    await client.payments.create(params('tok_test_success'));
    await receiver.waitFor(() => receiver.received.length === 1);
    await expect
      .poll(async () => (await client.webhookEndpoints.list()).data[0]?.status)
      .toBe('disabled');
    await client.payments.create(params('tok_test_success'));
    await settled(ctx);
    expect(receiver.received).toHaveLength(1);
    expect((await client.webhookEndpoints.list()).data[0]?.id).toBe(endpoint.id);
  });

  it('redelivery of an unknown event is 404, and the controls refuse a live key', async () => {
    const apiKey = ctx.newApiKey();
    const unknown = await ctx.send('/_sandbox/events/evt_unknown/redeliver', {
      apiKey,
      method: 'POST',
    });
    expect(unknown.status).toBe(404);
    for (const [path, method] of [
      ['/_sandbox/webhook_deliveries', 'GET'],
      ['/_sandbox/events/evt_x/redeliver', 'POST'],
    ] as const) {
      const refused = await ctx.send(path, { apiKey: 'sk_live_abcdefghijklmnop', method });
      expect(refused.status).toBe(401);
    }
  });
});
