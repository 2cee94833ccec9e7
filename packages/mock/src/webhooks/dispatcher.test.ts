import { createHmac } from 'node:crypto';
import {
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookAnswer,
  type WebhookReceiver,
} from '@payment-service/sdk/node';
import { afterEach, describe, expect, it } from 'vitest';
import { mockServerOf } from '../app/mock-server.js';
import { createRuntime, type RuntimeHooks } from '../app/runtime.js';
import { STORES } from '../test-support/async-store.js';
import { createHarness, type Harness, TEST_KEY } from '../test-support/harness.js';
import { generateWebhookSecret } from './default-endpoint.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * The SDK's receiver on 127.0.0.1, verifying on the harness's sandbox clock with the secret of
 * the endpoint `register` registered last.
 */
function startTestReceiver(harness: Harness, answer?: WebhookAnswer) {
  return startWebhookReceiver({ now: () => harness.clock.now(), ...(answer ? { answer } : {}) });
}

async function setup(hooks: RuntimeHooks, answer?: WebhookAnswer) {
  const harness = createHarness({}, hooks);
  const receiver = await startTestReceiver(harness, answer);
  cleanups.push(
    () => receiver.close(),
    () => harness.mock.close(),
  );
  return { receiver, harness };
}

async function register(harness: Harness, receiver: WebhookReceiver, fields = {}) {
  const created = await harness.json('POST', '/v1/webhook_endpoints', {
    body: { url: receiver.url, ...fields },
  });
  expect(created.status).toBe(201);
  receiver.secret = created.body.secret;
  return created.body as { id: string; secret: string };
}

/** Checks a delivery's signature independently of the mock's signing code. */
function expectSigned(delivery: ReceivedWebhook, secret: string) {
  const id = delivery.headers['webhook-id'] as string;
  const timestamp = delivery.headers['webhook-timestamp'] as string;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.rawBody}`).digest();
  expect(delivery.headers['webhook-signature']).toBe(`v1,${mac.toString('base64')}`);
  expect(id).toBe(delivery.event.id);
}

for (const { name: store, hooks } of STORES) {
  describe(store, () => {
    describe('webhook endpoints', () => {
      it('registers with a secret shown once, lists without it, deletes', async () => {
        const { receiver, harness } = await setup(hooks);
        const endpoint = await register(harness, receiver, { events: ['payment.succeeded'] });
        expect(endpoint).toMatchObject({
          id: expect.stringMatching(/^we_/),
          object: 'webhook_endpoint',
          url: receiver.url,
          events: ['payment.succeeded'],
          status: 'enabled',
          secret: expect.stringMatching(/^whsec_/),
        });
        const listed = await harness.json('GET', '/v1/webhook_endpoints');
        expect(listed.body.data).toHaveLength(1);
        expect(listed.body.data[0].secret).toBeUndefined();
        const deleted = await harness.json('DELETE', `/v1/webhook_endpoints/${endpoint.id}`);
        expect(deleted.body).toEqual({
          id: endpoint.id,
          object: 'webhook_endpoint',
          deleted: true,
        });
        expect((await harness.json('DELETE', `/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(
          404,
        );
      });

      it('refuses a URL that is not http(s) and a seventeenth endpoint', async () => {
        const { receiver, harness } = await setup(hooks);
        const bad = await harness.json('POST', '/v1/webhook_endpoints', {
          body: { url: 'ftp://x' },
        });
        expect(bad.status).toBe(400);
        for (let index = 0; index < 16; index++) await register(harness, receiver);
        const extra = await harness.json('POST', '/v1/webhook_endpoints', {
          body: { url: receiver.url },
        });
        expect(extra.status).toBe(409);
        expect(extra.body.code).toBe('webhook_endpoint_limit_reached');
        expect(extra.body.detail).toMatch(/at most 16 webhook endpoints/);
      });
    });

    describe('webhook endpoints beyond this machine', () => {
      it.each([
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/',
        'http://[::ffff:10.0.0.1]/',
        'http://0.0.0.0:8080/',
      ])('refuses %s with a 400 naming url, storing nothing', async (url) => {
        const harness = createHarness({}, hooks);
        cleanups.push(() => harness.mock.close());
        const refused = await harness.json('POST', '/v1/webhook_endpoints', { body: { url } });
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({ code: 'invalid_request', param: 'url' });
        expect(refused.body.detail).toMatch(/^url must not point at /);
        expect((await harness.json('GET', '/v1/webhook_endpoints')).body.data).toEqual([]);
      });

      it('accepts a private network with allowPrivateWebhookUrls, never a metadata address', async () => {
        const harness = createHarness({ allowPrivateWebhookUrls: true }, hooks);
        cleanups.push(() => harness.mock.close());
        const created = await harness.json('POST', '/v1/webhook_endpoints', {
          body: { url: 'http://10.0.0.1/hooks' },
        });
        expect(created.status).toBe(201);
        const metadata = await harness.json('POST', '/v1/webhook_endpoints', {
          body: { url: 'http://169.254.169.254/' },
        });
        expect(metadata.status).toBe(400);
      });
    });

    describe('webhook delivery', () => {
      it('sends one signed event per status change, pending settlement included', async () => {
        const { receiver, harness } = await setup(hooks);
        const { secret } = await register(harness, receiver);
        const payment = await harness.createPayment({ capture: false });
        await harness.json('POST', `/v1/payments/${payment.id}/capture`, { body: {} });
        const refund = await harness.json('POST', `/v1/payments/${payment.id}/refunds`, {
          body: { amount: 400 },
        });
        expect(refund.status).toBe(201); // partial: no status change, no event
        await harness.json('POST', `/v1/payments/${payment.id}/refunds`);
        const pending = await harness.createPayment({
          payment_method: { type: 'token', token: 'tok_test_pending' },
        });
        await receiver.waitFor(4);
        await harness.json('POST', '/_sandbox/clock/advance', { body: { seconds: 5 } });
        const deliveries = await receiver.waitFor(5);
        await harness.mock.webhooksSettled(); // every attempt made, none in flight
        // Delivered at least once and in no guaranteed order (attempts run side by side): compared as a set.
        expect(deliveries.map((delivery) => delivery.event.type).sort()).toEqual([
          'payment.authorized',
          'payment.pending',
          'payment.refunded',
          'payment.succeeded',
          'payment.succeeded',
        ]);
        for (const delivery of deliveries) expectSigned(delivery, secret);
        const ofPending = deliveries.filter(
          (delivery) => delivery.event.data.object.id === pending.id,
        );
        expect(ofPending.map((delivery) => delivery.event.data.object.status).sort()).toEqual([
          'PENDING',
          'SUCCEEDED',
        ]);
        const authorized = deliveries.find(
          (delivery) => delivery.event.type === 'payment.authorized',
        );
        expect(authorized?.event.data.object.status).toBe('AUTHORIZED'); // a snapshot
        expect(authorized?.headers['webhook-timestamp']).toBe(String(harness.clock.now() / 1000));
        expect(new Set(deliveries.map((delivery) => delivery.event.id)).size).toBe(5);
      });

      it('sends only the events an endpoint filters for', async () => {
        const { receiver, harness } = await setup(hooks);
        await register(harness, receiver, { events: ['payment.failed'] });
        await harness.createPayment();
        await harness.createPayment({
          payment_method: { type: 'token', token: 'tok_test_declined' },
        });
        const [failed] = await receiver.waitFor(1);
        await harness.mock.webhooksSettled(); // every attempt made, none in flight
        expect(receiver.received).toHaveLength(1);
        expect(failed?.event.type).toBe('payment.failed');
      });

      it('retries on the sandbox clock until the receiver is back, and logs every attempt', async () => {
        const { receiver, harness } = await setup(hooks, (_delivery, index) =>
          index < 2 ? 503 : 200,
        );
        await register(harness, receiver);
        await harness.createPayment();
        await receiver.waitFor(1);
        await expect.poll(async () => (await deliveriesOf(harness)).length).toBe(1);
        const [first] = await deliveriesOf(harness);
        expect(first).toMatchObject({
          attempt: 1,
          status: 503,
          error: null,
          response_body: null, // the receiver answers without a body
        });
        expect(first.next_retry_at).not.toBeNull();
        await harness.json('POST', '/_sandbox/clock/advance', { body: { seconds: 6 } });
        await receiver.waitFor(2);
        await expect.poll(async () => (await deliveriesOf(harness)).length).toBe(2);
        await harness.json('POST', '/_sandbox/clock/advance', { body: { seconds: 36 } });
        await receiver.waitFor(3);
        await expect.poll(async () => (await deliveriesOf(harness))[0]?.status).toBe(200);
        const log = await deliveriesOf(harness);
        expect(log.map((entry: { attempt: number }) => entry.attempt)).toEqual([3, 2, 1]);
        expect(log[0].next_retry_at).toBeNull();
        expect(new Set(receiver.received.map((delivery) => delivery.event.id)).size).toBe(1);
      });

      it('logs a connection error and a timeout, and a 410 disables the endpoint', async () => {
        const { receiver, harness } = await setup(hooks, () => 410);
        await register(harness, receiver);
        await harness.createPayment();
        await receiver.waitFor(1);
        await expect
          .poll(
            async () => (await harness.json('GET', '/v1/webhook_endpoints')).body.data[0].status,
          )
          .toBe('disabled');
        await harness.createPayment();
        await harness.mock.webhooksSettled(); // every attempt made, none in flight
        expect(receiver.received).toHaveLength(1);
        const [entry] = await deliveriesOf(harness);
        expect(entry).toMatchObject({ status: 410, next_retry_at: null });

        const other = createHarness({ webhookTimeoutMs: 100 }, hooks);
        const closed = await startTestReceiver(other);
        await closed.close();
        const hanging = await startTestReceiver(other, () => 'hang');
        cleanups.push(() => hanging.close());
        cleanups.push(() => other.mock.close());
        await register(other, closed);
        await register(other, hanging);
        await other.createPayment();
        await expect.poll(async () => (await deliveriesOf(other)).length).toBe(2);
        const errors = (await deliveriesOf(other)).map(
          (delivery: { error: string }) => delivery.error,
        );
        expect(errors.sort()).toEqual(['connection_error: ECONNREFUSED', 'timeout']);
      });

      it('redelivers an event with the same webhook-id; 404 for an unknown one', async () => {
        const { receiver, harness } = await setup(hooks);
        await register(harness, receiver);
        await harness.createPayment();
        const [first] = await receiver.waitFor(1);
        const eventId = first?.event.id;
        const redelivery = await harness.json('POST', `/_sandbox/events/${eventId}/redeliver`);
        expect(redelivery.body).toEqual({
          object: 'event_redelivery',
          event_id: eventId,
          endpoints: 1,
        });
        const [, second] = await receiver.waitFor(2);
        expect(second?.headers['webhook-id']).toBe(eventId);
        expect(second?.rawBody).toBe(first?.rawBody);
        expect((await harness.json('POST', '/_sandbox/events/evt_unknown/redeliver')).status).toBe(
          404,
        );
      });

      it('never slows the API down: a receiver that hangs does not delay a create', async () => {
        const { receiver, harness } = await setup(hooks, () => 'hang');
        await register(harness, receiver);
        // Deliveries time out after 10 s: were a create waiting for its delivery, these 20 creates
        // would outlast the test's timeout. They all answer while the receiver hangs.
        const answers = [];
        for (let index = 0; index < 20; index++) answers.push(await harness.createPayment());
        expect(answers).toHaveLength(20);
        // At most 4 attempts of one key are in flight at once (fair delivery); the rest wait.
        await receiver.waitFor(4);
        harness.mock.close(); // aborts the attempts in flight
      });

      it('creates no webhook state for keys without endpoints; reset forgets endpoints', async () => {
        const { receiver, harness } = await setup(hooks);
        await harness.createPayment();
        expect((await deliveriesOf(harness)).length).toBe(0);
        await register(harness, receiver);
        await harness.json('POST', '/_sandbox/reset');
        expect((await harness.json('GET', '/v1/webhook_endpoints')).body.data).toEqual([]);
        await harness.createPayment();
        await harness.mock.webhooksSettled(); // every attempt made, none in flight
        expect(receiver.received).toHaveLength(0);
      });
    });

    describe('the default endpoint (webhookUrl)', () => {
      it('receives every key’s events, and settles pending payments on real time', async () => {
        const secret = generateWebhookSecret();
        const receiver = await startWebhookReceiver({ secret });
        const mock = mockServerOf(
          createRuntime(
            {
              webhookUrl: receiver.url,
              webhookSecret: secret,
              settlementDelaySeconds: 0.2,
            },
            hooks,
          ),
        );
        cleanups.push(
          () => receiver.close(),
          () => mock.close(),
        );
        const create = (apiKey: string) =>
          mock.fetch('http://sandbox.test/v1/payments', {
            method: 'POST',
            headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              amount: 100,
              currency: 'KZT',
              payment_method: { type: 'token', token: 'tok_test_pending' },
            }),
          });
        await create(TEST_KEY);
        await create('sk_test_another_key_000001');
        // No further request: the dispatcher's timer settles both and sends their events.
        const deliveries = await receiver.waitFor(4, 3000);
        expect(deliveries.map((delivery) => delivery.event.type).sort()).toEqual([
          'payment.pending',
          'payment.pending',
          'payment.succeeded',
          'payment.succeeded',
        ]);
        for (const delivery of deliveries) expectSigned(delivery, secret);
      });

      it('refuses a webhookUrl without a valid secret, without echoing it', () => {
        expect(() =>
          mockServerOf(createRuntime({ webhookUrl: 'http://127.0.0.1:1/x' }, hooks)),
        ).toThrow(/webhookSecret/);
        expect(() =>
          mockServerOf(
            createRuntime({ webhookUrl: 'http://127.0.0.1:1/x', webhookSecret: 'whsec_%%' }, hooks),
          ),
        ).toThrow(/^(?!.*%%)/);
        expect(() =>
          mockServerOf(
            createRuntime(
              { webhookUrl: 'not a url', webhookSecret: generateWebhookSecret() },
              hooks,
            ),
          ),
        ).toThrow(/webhookUrl/);
      });
    });

    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary log fields
    async function deliveriesOf(harness: Harness): Promise<any[]> {
      return (await harness.json('GET', '/_sandbox/webhook_deliveries')).body.data;
    }

    describe('webhooksSettled', () => {
      it('waits for an attempt in flight, then ignores the retry due later on the sandbox clock', async () => {
        const harness = createHarness({ webhookTimeoutMs: 100 }, hooks);
        const receiver = await startTestReceiver(harness, () => 'hang');
        cleanups.push(
          () => receiver.close(),
          () => harness.mock.close(),
        );
        await register(harness, receiver);
        await harness.createPayment();
        let settled = false;
        const waiting = harness.mock.webhooksSettled().then(() => {
          settled = true;
        });
        await receiver.waitFor(1); // the attempt arrived and hangs
        expect(settled).toBe(false);
        await waiting; // it timed out
        const [entry] = await deliveriesOf(harness);
        expect(entry).toMatchObject({ attempt: 1, error: 'timeout', status: null });
        expect(entry.next_retry_at).not.toBeNull();
        expect(receiver.received).toHaveLength(1);
      });

      it('ends an attempt at its timeout even when the injected fetch ignores the signal', async () => {
        const harness = createHarness(
          { webhookTimeoutMs: 100, webhookFetch: () => new Promise<Response>(() => {}) },
          hooks,
        );
        cleanups.push(() => harness.mock.close());
        await harness.json('POST', '/v1/webhook_endpoints', {
          body: { url: 'https://receiver.example/hooks' },
        });
        await harness.createPayment();
        await harness.mock.webhooksSettled(); // never resolved before: the attempt hung
        const [entry] = await deliveriesOf(harness);
        expect(entry).toMatchObject({ attempt: 1, error: 'timeout', status: null });
      });

      it('resolves at once with nothing to deliver, and when the server closes', async () => {
        const { receiver, harness } = await setup(hooks, () => 'hang');
        await harness.mock.webhooksSettled();
        await register(harness, receiver);
        await harness.createPayment();
        await receiver.waitFor(1);
        const waiting = harness.mock.webhooksSettled();
        harness.mock.close();
        await waiting;
      });
    });
  });
}
