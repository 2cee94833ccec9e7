// Attack 5: key A's webhook receiver hangs with a hundred deliveries waiting; key B's first
// webhook still arrives while every one of A's attempts is hanging (none has timed out yet).
import { describe, expect, it } from 'vitest';
import { call, paymentBody, pool } from './http.js';
import type { Receiver } from './receiver.js';
import { useSandbox } from './test-support/use-sandbox.js';

const HANGING_KEY = 'sk_test_reliability_fair_a';
const NEIGHBOUR = 'sk_test_reliability_fair_b';
// More attempts than any global delivery pool (32 slots before the fix).
const HANGING_PAYMENTS = 100;

const fx = useSandbox(['--quiet'], { hanging: 'hang', answering: 'answer' });

describe('fair webhook delivery', () => {
  it("delivers B's first webhook while A's receiver hangs", { timeout: 20_000 }, async () => {
    const { url } = fx.sandbox;
    const endpoint = (key: string, receiver: Receiver) =>
      call(url, { path: '/v1/webhook_endpoints', key, body: { url: receiver.url } });
    expect((await endpoint(HANGING_KEY, fx.receivers.hanging)).status).toBe(201);
    expect((await endpoint(NEIGHBOUR, fx.receivers.answering)).status).toBe(201);
    await pool(HANGING_PAYMENTS, 8, async (index) => {
      const answer = await call(url, {
        path: '/v1/payments',
        key: HANGING_KEY,
        idempotencyKey: `a-${index}`,
        body: paymentBody(),
      });
      expect(answer.status).toBe(201);
    });
    // A's attempts are under way (its receiver holds them open).
    await fx.receivers.hanging.waitFor();

    const sent = performance.now();
    const payment = await call(url, {
      path: '/v1/payments',
      key: NEIGHBOUR,
      idempotencyKey: 'b-1',
      body: paymentBody(),
    });
    expect(payment.status).toBe(201);
    const arrival = await fx.receivers.answering.waitFor(String(payment.json?.id));
    // Ordering, not speed: B's webhook came while none of A's hanging attempts had ended.
    expect(
      fx.receivers.hanging.abandoned,
      `B arrived after ${Math.round(arrival.at - sent)} ms`,
    ).toBe(0);
    expect(fx.sandbox.alive()).toBe(true);
  });
});
