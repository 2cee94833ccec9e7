// The mock's own controls through the SDK and raw HTTP: injected faults reach the SDK as its typed errors, latency, the clock and reset scoped to the calling key, and malformed control requests (the provider's operations are checked by @payment-service/contract's scenarios, in contract-check.test.ts).
import { NotFoundError, RateLimitError, ServerError } from '@payment-service/sdk';
import { describe, expect, it } from 'vitest';
import { targetNames } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

const params = (token: string) => ({
  amount: 10_000,
  currency: 'KZT',
  payment_method: { type: 'token' as const, token },
});

describe.each(targetNames())('sandbox controls (%s)', (name) => {
  const ctx = useTarget(name);

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

  it('answers its health, with the sandbox version', async () => {
    const health = await ctx.controls(ctx.newApiKey()).health();
    expect(health).toMatchObject({ object: 'sandbox_health', status: 'ok' });
    expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
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
      ['/_sandbox/health', 'GET'],
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

  it("moves only the calling key's clock", async () => {
    const mine = ctx.newApiKey();
    const theirs = ctx.newApiKey();
    const pending = await ctx.client(theirs).payments.create(params('tok_test_pending'));
    await ctx.controls(mine).advanceClock(3600);
    expect((await ctx.client(theirs).payments.retrieve(pending.id)).status).toBe('PENDING');
    expect((await ctx.controls(theirs).getClock()).offset_seconds).toBe(0);
  });

  it('reset deletes the key’s payments', async () => {
    const apiKey = ctx.newApiKey();
    const client = ctx.client(apiKey);
    const payment = await client.payments.create(params('tok_test_success'));
    const reset = await ctx.controls(apiKey).reset();
    expect(reset.deleted_payments).toBe(1);
    await expect(client.payments.retrieve(payment.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('never serves the controls under /v1', async () => {
    const response = await ctx.send('/v1/_sandbox/reset', { method: 'POST' });
    expect(response.status).toBe(404);
  });
});
