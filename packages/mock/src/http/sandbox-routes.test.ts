// The sandbox controls as a caller on another machine sees them: statuses, never a receiver's answer.
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { mockVersion } from '../shared/version.js';
import { createHarness, type Harness, TEST_KEY } from '../test-support/harness.js';
import { generateWebhookSecret } from '../webhooks/default-endpoint.js';

/** The bindings @hono/node-server gives a request that came over the network. */
const fromNetwork = { incoming: { socket: { remoteAddress: '192.0.2.7' } } };

let harness: Harness | undefined;
afterEach(() => harness?.mock.close());

async function deliveredOnce(): Promise<Harness> {
  const started = createHarness({
    webhookFetch: async () => new Response('root:x:0:0 (a loopback service page)', { status: 200 }),
  });
  harness = started;
  const endpoint = await started.json('POST', '/v1/webhook_endpoints', {
    body: { url: 'http://127.0.0.1:9/internal' },
  });
  expect(endpoint.status).toBe(201);
  await started.createPayment();
  await started.mock.webhooksSettled();
  return started;
}

async function readAs(h: Harness, path: string, env?: unknown) {
  const request = new Request(`http://sandbox.test${path}`, {
    headers: { authorization: `Bearer ${TEST_KEY}` },
  });
  const response = await h.mock.app.fetch(request, env);
  return { status: response.status, body: await response.json() };
}

describe('answers of receivers, by caller', () => {
  it('shows a caller on this machine the start of what the receiver answered', async () => {
    const h = await deliveredOnce();
    const { body } = await readAs(h, '/_sandbox/webhook_deliveries');
    expect(body.data[0]).toMatchObject({
      status: 200,
      response_body: expect.stringContaining('root:x'),
    });
  });

  it('shows a caller from the network the status only (webhook_deliveries and the inspector)', async () => {
    const h = await deliveredOnce();
    // Before: the answer's first 256 characters, to anyone who could reach the port.
    const list = await readAs(h, '/_sandbox/webhook_deliveries', fromNetwork);
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    for (const attempt of list.body.data) {
      expect(attempt.status).toBe(200);
      expect(attempt.response_body).toBeNull();
    }
    const inspector = await readAs(h, '/_sandbox/inspector', fromNetwork);
    const deliveries = inspector.body.events.flatMap(
      (event: { deliveries: unknown[] }) => event.deliveries,
    );
    expect(deliveries.length).toBeGreaterThan(0);
    expect(JSON.stringify(inspector.body)).not.toContain('root:x');
  });
});

describe("the operator's --webhook-url", () => {
  it('is shown to a key with its token masked, in webhook_deliveries as in the inspector', async () => {
    harness = createHarness({
      webhookUrl: 'http://127.0.0.1:5299/hooks?token=optoken123',
      webhookSecret: generateWebhookSecret(),
      webhookFetch: async () => new Response('ok'),
    });
    await harness.createPayment();
    await harness.mock.webhooksSettled();
    const list = await readAs(harness, '/_sandbox/webhook_deliveries');
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data[0].url).toBe('http://127.0.0.1:5299/hooks?token=***');
    const inspector = await readAs(harness, '/_sandbox/inspector');
    expect(JSON.stringify(inspector.body)).toContain('token=***');
    expect(JSON.stringify(list.body) + JSON.stringify(inspector.body)).not.toContain('optoken123');
  });
});

describe('GET /_sandbox/health', () => {
  it('answers ok and the package version to any sk_test_ key', async () => {
    harness = createHarness();
    const { status, body } = await readAs(harness, '/_sandbox/health');
    expect(status).toBe(200);
    expect(body).toEqual({ object: 'sandbox_health', status: 'ok', version: mockVersion });
  });

  it('answers without a key (a load balancer has none), and still refuses a bad key sent', async () => {
    harness = createHarness();
    const response = await harness.mock.app.fetch(
      new Request('http://sandbox.test/_sandbox/health'),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      object: 'sandbox_health',
      status: 'ok',
      version: mockVersion,
    });
    const live = await harness.mock.app.fetch(
      new Request('http://sandbox.test/_sandbox/health', {
        headers: { authorization: 'Bearer sk_live_abcdefghijklmnop' },
      }),
    );
    expect(live.status).toBe(401);
    // Keyless is health's alone.
    const clock = await harness.mock.app.fetch(new Request('http://sandbox.test/_sandbox/clock'));
    expect(clock.status).toBe(401);
  });

  it('carries the version of package.json', () => {
    const manifest = createRequire(import.meta.url)('../../package.json') as { version: string };
    expect(mockVersion).toBe(manifest.version);
  });
});
