// Attack 1: push the sandbox clock year by year; it must stop at 100 years with a 400, keep every
// timestamp in the spec's format, keep working afterwards and never crash.
import { describe, expect, it } from 'vitest';
import { advanceClockToLimit, CLOCK_LIMIT_SECONDS } from './attacks/floods.js';
import { badTimestamps } from './expect-helpers.js';
import { call, paymentBody } from './http.js';
import { useSandbox } from './test-support/use-sandbox.js';

const KEY = 'sk_test_reliability_clock';
// 100 one-year calls reach the limit; 10,000 would take an unbounded clock past year 9999.
const MAX_CALLS = 10_000;

const fx = useSandbox(['--quiet'], { receiver: 'answer' });

describe('clock attack: many one-year advances', () => {
  it('stops at 100 years with a 400 naming the limit, and everything still works', async () => {
    const { url } = fx.sandbox;
    // A webhook endpoint, so every later change also formats an event's timestamps.
    const endpoint = await call(url, {
      path: '/v1/webhook_endpoints',
      key: KEY,
      body: { url: fx.receivers.receiver.url },
    });
    expect(endpoint.status).toBe(201);
    const create = (capture: boolean, tag: string) =>
      call(url, {
        path: '/v1/payments',
        key: KEY,
        idempotencyKey: tag,
        body: paymentBody(1000, capture),
      });
    const toCapture = await create(false, 'clock-capture');
    const toCancel = await create(false, 'clock-cancel');
    const toRefund = await create(true, 'clock-refund');
    for (const answer of [toCapture, toCancel, toRefund]) expect(answer.status).toBe(201);

    const { calls, last } = await advanceClockToLimit(url, KEY, MAX_CALLS);
    expect(fx.sandbox.alive()).toBe(true);
    expect(last.status, `after ${calls} calls: ${last.text.slice(0, 300)}`).toBe(400);
    expect(last.json?.code).toBe('invalid_request');
    expect(last.json?.param).toBe('seconds');
    expect(String(last.json?.detail)).toMatch(/100 years|3,?155,?760,?000/);
    expect(calls).toBeLessThanOrEqual(Math.ceil(CLOCK_LIMIT_SECONDS / 31_536_000) + 1);

    const clock = await call(url, { path: '/_sandbox/clock', key: KEY });
    expect(clock.status).toBe(200);
    expect(Number(clock.json?.offset_seconds)).toBeLessThanOrEqual(CLOCK_LIMIT_SECONDS);
    expect(badTimestamps(clock.json)).toEqual([]);

    const id = (answer: typeof toCapture) => String(answer.json?.id);
    const after = [
      await call(url, {
        path: `/v1/payments/${id(toCapture)}/capture`,
        key: KEY,
        idempotencyKey: 'c1',
        body: {},
      }),
      await call(url, {
        path: `/v1/payments/${id(toCancel)}/cancel`,
        key: KEY,
        idempotencyKey: 'c2',
        body: {},
      }),
      await call(url, {
        path: `/v1/payments/${id(toRefund)}/refunds`,
        key: KEY,
        idempotencyKey: 'c3',
        body: { amount: 1000 },
      }),
      await create(true, 'clock-after'),
    ];
    expect(after.map((answer) => answer.status)).toEqual([200, 200, 201, 201]);
    for (const answer of after) expect(badTimestamps(answer.json)).toEqual([]);
    const refunded = await call(url, { path: `/v1/payments/${id(toRefund)}`, key: KEY });
    expect(refunded.json?.amount_refunded).toBe(1000);

    // The events of those changes reach the receiver (the dispatcher formatted them and lived).
    // Its events after the limit arrive too: the capture's, the cancel's, the refund's.
    const eventsOf = (payment: string) =>
      fx.receivers.receiver.received.filter((event) => event.data?.object?.id === payment).length;
    await fx.receivers.receiver.until(
      () =>
        eventsOf(id(toCapture)) >= 2 && eventsOf(id(toCancel)) >= 2 && eventsOf(id(toRefund)) >= 2,
    );
    const deliveries = await call(url, { path: '/_sandbox/webhook_deliveries', key: KEY });
    expect(deliveries.status).toBe(200);
    expect(badTimestamps(deliveries.json)).toEqual([]);
    for (const event of fx.receivers.receiver.received) expect(badTimestamps(event)).toEqual([]);
    expect(fx.sandbox.alive()).toBe(true);
  });
});
