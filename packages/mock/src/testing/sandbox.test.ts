import { webhooks } from '@payment-service/sdk';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestSandbox } from './sandbox.js';
import type { TestSandbox } from './types.js';

const sandboxes: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});
function sandboxFor(options: Parameters<typeof createTestSandbox>[0] = {}): TestSandbox {
  const sandbox = createTestSandbox(options);
  sandboxes.push(sandbox);
  return sandbox;
}

/** A merchant's webhook route: verifies, records each event once, answers what `answer` says. */
function merchantApp(secret: () => string, answer: (index: number) => number = () => 204) {
  const paid = new Set<string>();
  const seen: string[] = [];
  let calls = 0;
  const app = new Hono();
  app.post('/webhooks', async (c) => {
    const index = calls++;
    const event = await webhooks.verify(await c.req.text(), c.req.raw.headers, secret());
    const status = answer(index);
    if (status >= 300) return c.body(null, status as 500);
    seen.push(event.id);
    if (event.type === 'payment.succeeded') paid.add(event.data.object.id);
    return c.body(null, 204);
  });
  return { app, paid, seen, calls: () => calls };
}

const pending = {
  amount: 1000,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_pending' },
} as const;

describe('createTestSandbox', () => {
  it('delivers a verified payment.succeeded to the handler once the clock passes the settlement', async () => {
    const sandbox = sandboxFor();
    let secret = '';
    const merchant = merchantApp(() => secret);
    ({ secret } = await sandbox.webhooks.deliverTo(merchant.app.fetch, {
      url: 'http://shop.test/webhooks',
    }));
    const payment = await sandbox.client.payments.create(pending);
    expect(payment.status).toBe('PENDING');
    await sandbox.clock.advance(4_999);
    expect(merchant.paid.has(payment.id)).toBe(false);
    await sandbox.clock.advance(1);
    expect(merchant.paid.has(payment.id)).toBe(true);
    const event = await sandbox.webhooks.next({ type: 'payment.succeeded', paymentId: payment.id });
    expect(event.data.object).toMatchObject({ id: payment.id, status: 'SUCCEEDED' });
    expect(event.created_at).toBe('2026-01-01T00:00:05Z');
    expect(sandbox.clock.now().toISOString()).toBe('2026-01-01T00:00:05.000Z');
  });

  it('retries after the handler answers 500, on the sandbox clock', async () => {
    const sandbox = sandboxFor();
    let secret = '';
    const merchant = merchantApp(
      () => secret,
      (index) => (index === 0 ? 500 : 204),
    );
    ({ secret } = await sandbox.webhooks.deliverTo(merchant.app.fetch, {
      url: 'http://shop.test/webhooks',
      events: ['payment.succeeded'],
    }));
    const payment = await sandbox.trigger('payment.succeeded');
    expect(merchant.calls()).toBe(1);
    expect(merchant.paid.size).toBe(0);
    const [first] = await sandbox.webhooks.deliveries();
    expect(first).toMatchObject({ attempt: 1, status: 500, event_type: 'payment.succeeded' });
    expect(first?.next_retry_at).not.toBeNull();
    await sandbox.clock.advance(6_000); // the first retry comes 5 s ± 20 % later
    expect(merchant.calls()).toBe(2);
    expect(merchant.paid.has(payment.id)).toBe(true);
    const attempts = await sandbox.webhooks.deliveries();
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status])).toEqual([
      [1, 500],
      [2, 204],
    ]);
  });

  it('makes every attempt of a failing handler at its own time within one long advance', async () => {
    const sandbox = sandboxFor({ seed: 'always-failing' });
    await sandbox.webhooks.deliverTo(() => new Response('down', { status: 503 }));
    await sandbox.trigger('payment.failed');
    await sandbox.clock.advance(24 * 3600 * 1000);
    const attempts = await sandbox.webhooks.deliveries();
    expect(attempts.map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const times = attempts.map((attempt) => Date.parse(attempt.attempted_at));
    const gaps = times.slice(1).map((time, index) => (time - (times[index] as number)) / 1000);
    expect(gaps[0]).toBeGreaterThanOrEqual(4);
    expect(gaps[0]).toBeLessThanOrEqual(6);
    expect(gaps[7]).toBeGreaterThanOrEqual(4 * 3600 * 0.8 - 1);
    expect(attempts.at(-1)?.next_retry_at).toBeNull();
  });

  it('replays an event to the handler and lets it prove it is idempotent', async () => {
    const sandbox = sandboxFor();
    let secret = '';
    const merchant = merchantApp(() => secret);
    ({ secret } = await sandbox.webhooks.deliverTo(merchant.app.fetch));
    const payment = await sandbox.trigger('payment.succeeded');
    const event = await sandbox.webhooks.next({ paymentId: payment.id });
    await sandbox.webhooks.replay(event.id);
    const again = await sandbox.webhooks.next({ paymentId: payment.id });
    expect(again.id).toBe(event.id);
    expect(merchant.seen).toEqual([event.id, event.id]);
    expect(merchant.paid.size).toBe(1);
  });

  it('says what was delivered and what is due when next() finds nothing', async () => {
    const sandbox = sandboxFor();
    await sandbox.webhooks.deliverTo(() => new Response(null, { status: 204 }));
    const payment = await sandbox.client.payments.create(pending);
    await expect(
      sandbox.webhooks.next({ type: 'payment.succeeded', paymentId: payment.id, timeout: 0 }),
    ).rejects.toThrow(
      /no such event was delivered and accepted \(2xx\) by a handler; delivered so far: payment\.pending pay_\w+ at 2026-01-01T00:00:00\.000Z \(answered 204\); due on the sandbox clock \(now 2026-01-01T00:00:00\.000Z\): pay_\w+ settles at 2026-01-01T00:00:05\.000Z/,
    );
    const empty = sandboxFor();
    await expect(empty.webhooks.next({ timeout: 0 })).rejects.toThrow(/no handler is registered/);
  });

  it('logs a delivery to a URL with no handler as a connection error', async () => {
    const sandbox = sandboxFor();
    await sandbox.client.webhookEndpoints.create({ url: 'http://127.0.0.1:9/elsewhere' });
    await sandbox.trigger('payment.succeeded');
    const [attempt] = await sandbox.webhooks.deliveries();
    expect(attempt?.error).toBe(
      'connection_error: no handler receives http://127.0.0.1:9/elsewhere: register one with sandbox.webhooks.deliverTo(handler, { url })',
    );
  });

  it('triggers every event type of the spec', async () => {
    const sandbox = sandboxFor();
    await sandbox.webhooks.deliverTo(() => new Response(null, { status: 204 }));
    const statuses: Record<string, string> = {};
    for (const type of [
      'payment.pending',
      'payment.authorized',
      'payment.succeeded',
      'payment.failed',
      'payment.canceled',
      'payment.refunded',
    ] as const) {
      const payment = await sandbox.trigger(type);
      statuses[type] = payment.status;
      expect((await sandbox.webhooks.next({ type, paymentId: payment.id })).type).toBe(type);
    }
    expect(statuses).toEqual({
      'payment.pending': 'PENDING',
      'payment.authorized': 'AUTHORIZED',
      'payment.succeeded': 'SUCCEEDED',
      'payment.failed': 'FAILED',
      'payment.canceled': 'CANCELED',
      'payment.refunded': 'REFUNDED',
    });
    await expect(sandbox.trigger('payment.nope' as 'payment.pending')).rejects.toThrow(
      'sandbox.trigger("payment.nope"): not an event type; use one of payment.pending, payment.authorized, payment.succeeded, payment.failed, payment.canceled, payment.refunded',
    );
  });

  it('repeats keys, ids and secrets for the same seed', async () => {
    const run = async (seed: string) => {
      const sandbox = sandboxFor({ seed });
      const endpoint = await sandbox.webhooks.deliverTo(() => new Response(null, { status: 204 }));
      const payment = await sandbox.trigger('payment.refunded');
      const event = await sandbox.webhooks.next({ paymentId: payment.id });
      return [
        sandbox.apiKey,
        endpoint.id,
        endpoint.secret,
        payment.id,
        payment.created_at,
        event.id,
      ];
    };
    const first = await run('repeat-me');
    expect(await run('repeat-me')).toEqual(first);
    expect(await run('another')).not.toEqual(first);
    expect(createTestSandbox().randomSeed).not.toBe(createTestSandbox().randomSeed);
  });

  it('duplicates and reorders events in chaos mode, the same way for the same seed', async () => {
    const run = async (seed: string) => {
      const sandbox = sandboxFor({ seed, webhookDelivery: 'chaos' });
      const received: string[] = [];
      await sandbox.webhooks.deliverTo(async (request) => {
        const event = JSON.parse(await request.text());
        received.push(`${event.type}:${event.id}`);
        return new Response(null, { status: 204 });
      });
      for (let index = 0; index < 6; index++) await sandbox.client.payments.create(pending);
      await sandbox.clock.advance(60_000);
      return received;
    };
    const received = await run('chaos-1');
    expect(await run('chaos-1')).toEqual(received);
    // 6 payments, each PENDING then SUCCEEDED: 12 events, some twice, some out of order.
    expect(new Set(received).size).toBe(12);
    expect(received.length).toBeGreaterThan(12);
    const order = received.map((entry) => entry.split(':')[0]);
    const firstSucceeded = order.indexOf('payment.succeeded');
    expect(order.lastIndexOf('payment.pending')).toBeGreaterThan(firstSucceeded);
  });

  it('rejects bad options with a clear error', () => {
    expect(() => createTestSandbox({ seed: '' })).toThrow('seed must be a non-empty string');
    expect(() => createTestSandbox({ start: Number.NaN })).toThrow('start must be a Date');
    expect(() => createTestSandbox({ webhookDelivery: 'random' as 'chaos' })).toThrow(
      "webhookDelivery must be 'in-order' or 'chaos'; got random",
    );
  });

  it('refuses to move the clock back, and to be used once closed', async () => {
    const sandbox = sandboxFor();
    await expect(sandbox.clock.advance(-1)).rejects.toThrow('takes milliseconds ≥ 0; got -1');
    await expect(sandbox.clock.set(new Date('2025-01-01'))).rejects.toThrow(
      'clock.set(date) only moves forward, from 2026-01-01T00:00:00.000Z',
    );
    await sandbox.clock.set(new Date('2026-02-01T00:00:00Z'));
    expect(sandbox.clock.now().toISOString()).toBe('2026-02-01T00:00:00.000Z');
    await sandbox.close();
    await expect(sandbox.clock.advance(1)).rejects.toThrow(
      'sandbox.clock.advance(): the sandbox is closed',
    );
  });

  it('refuses a clock beyond the last date it can write, with the reason, and keeps working', async () => {
    const sandbox = sandboxFor();
    await expect(sandbox.clock.advance(1e17)).rejects.toThrow(
      'the sandbox clock stops at 9999-12-31T23:59:59.999Z',
    );
    await expect(sandbox.clock.set(Number.POSITIVE_INFINITY)).rejects.toThrow(
      'the sandbox clock needs a finite time in ms; got Infinity',
    );
    const created = await sandbox.client.payments.create({
      amount: 1000,
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_success' },
    });
    expect(created.status).toBe('SUCCEEDED');
    await sandbox.close();
  });

  it('serves over HTTP with listen() and closes it with the sandbox', async () => {
    const sandbox = sandboxFor();
    const server = await sandbox.listen();
    expect(await sandbox.listen()).toBe(server);
    const response = await fetch(`${server.url}/v1/payments`, {
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
    });
    expect(response.status).toBe(200);
    await sandbox.close();
    await expect(fetch(`${server.url}/v1/payments`)).rejects.toThrow();
  });

  it('is disposable with await using', async () => {
    let escaped: TestSandbox | undefined;
    {
      await using sandbox = createTestSandbox();
      escaped = sandbox;
      await sandbox.trigger('payment.succeeded');
    }
    await expect(escaped.trigger('payment.succeeded')).rejects.toThrow('the sandbox is closed');
  });
});
