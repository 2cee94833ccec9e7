// Every operation's declared error answers: 401 without a key, 404 for an unknown payment, 413/415 for bad bodies, and 429/5xx under the sandbox's fault injection.
import { RateLimitError, ServerError } from '@payment-service/sdk';
import { describe, expect, it } from 'vitest';
import { isLive, targetNames } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

const createBody = {
  amount: 2_000,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_success' },
};

/** Each /v1 operation as a raw request; `{id}` is replaced by a payment (or webhook endpoint) of the calling key. */
const operations = [
  { operationId: 'createPayment', method: 'POST', path: '/v1/payments', body: createBody },
  { operationId: 'listPayments', method: 'GET', path: '/v1/payments' },
  { operationId: 'retrievePayment', method: 'GET', path: '/v1/payments/{id}' },
  { operationId: 'capturePayment', method: 'POST', path: '/v1/payments/{id}/capture', body: {} },
  { operationId: 'cancelPayment', method: 'POST', path: '/v1/payments/{id}/cancel', body: {} },
  { operationId: 'createRefund', method: 'POST', path: '/v1/payments/{id}/refunds', body: {} },
  {
    operationId: 'createWebhookEndpoint',
    method: 'POST',
    path: '/v1/webhook_endpoints',
    body: { url: 'http://127.0.0.1:9/webhooks' },
  },
  { operationId: 'listWebhookEndpoints', method: 'GET', path: '/v1/webhook_endpoints' },
  { operationId: 'deleteWebhookEndpoint', method: 'DELETE', path: '/v1/webhook_endpoints/{id}' },
] as const;

const withBodies = operations.filter((operation) => 'body' in operation);
const onIds = operations.filter((operation) => operation.path.includes('{id}'));

describe.each(targetNames())('every operation (%s)', (name) => {
  const ctx = useTarget(name);

  it.each(operations)(
    '$operationId answers 401 missing_api_key without a key',
    async (operation) => {
      const response = await ctx.send(operation.path.replace('{id}', 'pay_x'), {
        method: operation.method,
        apiKey: null,
        ...('body' in operation ? { body: operation.body } : {}),
      });
      expect(response.status).toBe(401);
      expect(response.json.code).toBe('missing_api_key');
    },
  );

  it.each(onIds)('$operationId answers 404 not_found for an unknown payment', async (operation) => {
    const response = await ctx.send(operation.path.replace('{id}', 'pay_unknown12345678901234'), {
      method: operation.method,
      ...('body' in operation ? { body: operation.body } : {}),
    });
    expect(response.status).toBe(404);
    expect(response.json.code).toBe('not_found');
  });

  it.each(withBodies)('$operationId answers 413 for a body over the limit', async (operation) => {
    const response = await ctx.send(operation.path.replace('{id}', 'pay_x'), {
      method: operation.method,
      body: { padding: 'p'.repeat(80_000) },
    });
    expect(response.status).toBe(413);
    expect(response.json.code).toBe('body_too_large');
  });

  it.each(withBodies)('$operationId answers 415 for a body that is not JSON', async (operation) => {
    const response = await ctx.send(operation.path.replace('{id}', 'pay_x'), {
      method: operation.method,
      body: '<payment/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(response.status).toBe(415);
    expect(response.json.code).toBe('unsupported_media_type');
  });

  describe.skipIf(isLive)('under injected faults', () => {
    async function preparedPath(apiKey: string, path: string) {
      if (!path.includes('{id}')) return path;
      if (path.startsWith('/v1/webhook_endpoints/')) {
        const endpoint = await ctx.send('/v1/webhook_endpoints', {
          apiKey,
          body: { url: 'http://127.0.0.1:9/webhooks' },
        });
        return path.replace('{id}', endpoint.json.id);
      }
      const payment = await ctx.send('/v1/payments', {
        apiKey,
        body: { ...createBody, capture: false },
      });
      return path.replace('{id}', payment.json.id);
    }

    it.each(operations)(
      '$operationId answers 429 rate_limited with Retry-After',
      async (operation) => {
        const apiKey = ctx.newApiKey();
        const path = await preparedPath(apiKey, operation.path);
        await ctx
          .controls(apiKey)
          .setFaults({ fail_next: { count: 1, status: 429, retry_after: 7 } });
        const response = await ctx.send(path, {
          apiKey,
          method: operation.method,
          ...('body' in operation ? { body: operation.body } : {}),
        });
        expect(response.status).toBe(429);
        expect(response.json.code).toBe('rate_limited');
        expect(response.headers.get('retry-after')).toBe('7');
      },
    );

    // Every 5xx that an operation declares, one test per (operation, status).
    const serverErrors = operations.flatMap((operation) =>
      ([500, 502, 503, 504] as const).map((status) => ({ ...operation, status })),
    );
    it.each(serverErrors)(
      '$operationId answers $status and changes nothing',
      async ({ status, ...operation }) => {
        const apiKey = ctx.newApiKey();
        const path = await preparedPath(apiKey, operation.path);
        const before = await ctx.client(apiKey).payments.list();
        await ctx.controls(apiKey).setFaults({ fail_next: { count: 1, status } });
        const response = await ctx.send(path, {
          apiKey,
          method: operation.method,
          ...('body' in operation ? { body: operation.body } : {}),
        });
        expect(response.status).toBe(status);
        expect((await ctx.client(apiKey).payments.list()).data).toEqual(before.data);
      },
    );

    it('maps injected faults to the SDK’s RateLimitError and ServerError, then recovers', async () => {
      const apiKey = ctx.newApiKey();
      const client = ctx.client(apiKey);
      const controls = ctx.controls(apiKey);
      // maxRetries: 0, so each fault reaches the caller as the error it maps to (retries: sdk-resilience).
      const once = { maxRetries: 0 };
      await controls.setFaults({ fail_next: { count: 1, status: 429, retry_after: 2 } });
      const limited = await client.payments.list(undefined, once).catch((caught) => caught);
      expect(limited).toBeInstanceOf(RateLimitError);
      expect(limited.retryAfterSeconds).toBe(2);
      await controls.setFaults({ fail_next: { count: 2, status: 500 } });
      expect((await controls.getFaults()).fail_next?.count).toBe(2);
      await expect(client.payments.list(undefined, once)).rejects.toBeInstanceOf(ServerError);
      await expect(client.payments.list(undefined, once)).rejects.toBeInstanceOf(ServerError);
      expect((await client.payments.list()).object).toBe('list');
    });

    it('clears faults and adds latency', async () => {
      const apiKey = ctx.newApiKey();
      const controls = ctx.controls(apiKey);
      await controls.setFaults({ latency_ms: 150, fail_next: { count: 5, status: 502 } });
      expect(await controls.clearFaults()).toEqual({});
      await controls.setFaults({ latency_ms: 150 });
      const started = performance.now();
      await ctx.client(apiKey).payments.list();
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    });

    it('rejects malformed control requests and keys', async () => {
      const apiKey = ctx.newApiKey();
      for (const [path, method, body] of [
        ['/_sandbox/faults', 'PUT', { fail_next: { count: 1, status: 404 } }],
        ['/_sandbox/faults', 'PUT', { latency_ms: -5 }],
        ['/_sandbox/clock/advance', 'POST', { seconds: 'soon' }],
        ['/_sandbox/clock/advance', 'POST', {}],
      ] as const) {
        const response = await ctx.send(path, { apiKey, method, body });
        expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
        expect(response.json.code).toBe('invalid_request');
      }
      for (const [path, method] of [
        ['/_sandbox/reset', 'POST'],
        ['/_sandbox/clock', 'GET'],
        ['/_sandbox/clock/advance', 'POST'],
        ['/_sandbox/faults', 'GET'],
        ['/_sandbox/faults', 'PUT'],
        ['/_sandbox/faults', 'DELETE'],
        ['/_sandbox/inspector', 'GET'],
      ] as const) {
        const response = await ctx.send(path, {
          apiKey: 'sk_live_abcdefghijklmnop',
          method,
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
        });
        expect(response.status, `${method} ${path}`).toBe(401);
      }
    });

    it.each([
      ['/_sandbox/clock/advance', 'POST'],
      ['/_sandbox/faults', 'PUT'],
    ] as const)(
      '%s (%s) answers 413 and 415 for oversized and non-JSON bodies',
      async (path, method) => {
        const apiKey = ctx.newApiKey();
        const large = await ctx.send(path, {
          apiKey,
          method,
          body: { seconds: 1, pad: 'x'.repeat(80_000) },
        });
        expect(large.status).toBe(413);
        const text = await ctx.send(path, {
          apiKey,
          method,
          body: 'seconds=1',
          headers: { 'content-type': 'text/plain' },
        });
        expect(text.status).toBe(415);
      },
    );

    it('never serves the controls under /v1', async () => {
      const response = await ctx.send('/v1/_sandbox/reset', { method: 'POST' });
      expect(response.status).toBe(404);
    });
  });
});
