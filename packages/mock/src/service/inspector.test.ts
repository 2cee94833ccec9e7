import { startWebhookReceiver } from '@payment-service/sdk/node';
import { describe, expect, it, vi } from 'vitest';
import { STORES } from '../test-support/async-store.js';
import { createHarness, TEST_KEY } from '../test-support/harness.js';
import { spyOnResponseClone } from '../test-support/response-clone.js';

const OTHER_KEY = 'sk_test_harness_other_01';
const payment = (token: string, extra: Record<string, unknown> = {}) => ({
  amount: 1000,
  currency: 'KZT',
  payment_method: { type: 'token', token },
  ...extra,
});

async function snapshot(harness: ReturnType<typeof createHarness>, apiKey = TEST_KEY) {
  const { status, body } = await harness.json('GET', '/_sandbox/inspector', { apiKey });
  expect(status).toBe(200);
  return body;
}

for (const { name: store, hooks } of STORES) {
  describe(store, () => {
    describe('GET /_sandbox/inspector', () => {
      it('records each request of the key with status, code, Request-Id and both bodies, newest first', async () => {
        const harness = createHarness({}, hooks);
        const created = await harness.call('POST', '/v1/payments', {
          body: payment('tok_test_success'),
          headers: { 'idempotency-key': 'inspect-1' },
        });
        const missing = await harness.call('GET', '/v1/payments/pay_doesnotexist');
        const { requests } = await snapshot(harness);
        expect(requests).toHaveLength(2);
        expect(requests[0]).toMatchObject({
          object: 'recorded_request',
          method: 'GET',
          path: '/v1/payments/pay_doesnotexist',
          status: 404,
          code: 'not_found',
          request_id: missing.headers.get('request-id'),
          request_body: null,
          received_at: '2025-01-15T12:00:00Z',
        });
        expect(requests[1]).toMatchObject({
          method: 'POST',
          status: 201,
          code: null,
          request_id: created.headers.get('request-id'),
          truncated: false,
        });
        expect(JSON.parse(requests[1].request_body)).toEqual(payment('tok_test_success'));
        expect(JSON.parse(requests[1].response_body).status).toBe('SUCCEEDED');
      });

      it('records replays and refusals with the answers sent, without copying a Response', async () => {
        const harness = createHarness({}, hooks);
        // The recorder reads the text the mock answered with; a copy would build a stream tee.
        const clone = spyOnResponseClone();
        try {
          const first = await harness.call('POST', '/v1/payments', {
            body: payment('tok_test_success'),
            headers: { 'idempotency-key': 'replayed-1' },
          });
          const replay = await harness.call('POST', '/v1/payments', {
            body: payment('tok_test_success'),
            headers: { 'idempotency-key': 'replayed-1' },
          });
          expect(replay.headers.get('idempotent-replayed')).toBe('true');
          await harness.call('POST', '/v1/payments', {
            body: payment('tok_test_declined'),
            headers: { 'idempotency-key': 'replayed-1' },
          });
          await harness.call('GET', '/v1/payments', { apiKey: 'sk_live_not_here_1234' });
          const { requests } = await snapshot(harness);
          expect(requests.map((request: { status: number }) => request.status)).toEqual([
            422, 201, 201,
          ]);
          expect(requests[0].code).toBe('idempotency_key_reused');
          expect(JSON.parse(requests[0].response_body).code).toBe('idempotency_key_reused');
          expect(requests[1].response_body).toBe(requests[2].response_body);
          expect(JSON.parse(requests[1].response_body).id).toBe((await first.json()).id);
          expect(clone).not.toHaveBeenCalled();
        } finally {
          clone.mockRestore();
        }
      });

      it('records a 400 with the body as sent, even invalid JSON, and not its own GET /_sandbox reads', async () => {
        const harness = createHarness({}, hooks);
        await harness.call('POST', '/v1/payments', {
          rawBody: '{"amount": 10',
          headers: { 'content-type': 'application/json', 'idempotency-key': 'bad-json' },
        });
        await harness.call('GET', '/_sandbox/clock');
        await snapshot(harness);
        const { requests } = await snapshot(harness);
        expect(requests).toHaveLength(1);
        expect(requests[0]).toMatchObject({
          status: 400,
          code: 'invalid_json',
          request_body: '{"amount": 10',
        });
      });

      it('masks keys, webhook signing secrets and URL credentials or query values in bodies', async () => {
        const harness = createHarness({}, hooks);
        await harness.call('POST', '/v1/webhook_endpoints', {
          body: { url: 'https://hooks.example.com/in?token=hunter2' },
          headers: { 'idempotency-key': 'endpoint-1' },
        });
        await harness.call('POST', '/v1/payments', {
          body: payment('tok_test_success', { description: `paid with ${TEST_KEY}` }),
          headers: { 'idempotency-key': 'pay-1' },
        });
        const text = JSON.stringify((await snapshot(harness)).requests);
        expect(text).not.toContain('hunter2');
        expect(text).not.toContain(TEST_KEY);
        expect(text).not.toMatch(/whsec_[A-Za-z0-9+/=]{4,}/);
        expect(text).toContain('token=***');
        expect(text).toContain('whsec_…');
      });

      it('cuts bodies at 4 096 characters and says so', async () => {
        const harness = createHarness({}, hooks);
        await harness.call('POST', '/v1/payments', {
          rawBody: JSON.stringify({
            ...payment('tok_test_success'),
            description: 'x'.repeat(9000),
          }),
          headers: { 'content-type': 'application/json', 'idempotency-key': 'long' },
        });
        const [request] = (await snapshot(harness)).requests;
        expect(request.request_body).toHaveLength(4096);
        expect(request.truncated).toBe(true);
      });

      it('keeps the last 50 requests', async () => {
        const harness = createHarness({}, hooks);
        for (let index = 0; index < 60; index++)
          await harness.call('GET', `/v1/payments/pay_${index}`);
        const { requests } = await snapshot(harness);
        expect(requests).toHaveLength(50);
        expect(requests[0].path).toBe('/v1/payments/pay_59');
        expect(requests[49].path).toBe('/v1/payments/pay_10');
      });

      it('follows a pending payment through its timeline to SUCCEEDED, then a partial refund', async () => {
        const harness = createHarness({ settlementDelaySeconds: 5 }, hooks);
        const created = await harness.createPayment({
          payment_method: { type: 'token', token: 'tok_test_pending' },
        });
        await harness.json('POST', '/_sandbox/clock/advance', { body: { seconds: 5 } });
        await harness.call('POST', `/v1/payments/${created.id}/refunds`, {
          body: { amount: 300 },
          headers: { 'idempotency-key': 'refund-1' },
        });
        const { payments } = await snapshot(harness);
        expect(payments).toHaveLength(1);
        expect(payments[0].payment).toMatchObject({ id: created.id, amount_refunded: 300 });
        expect(payments[0].timeline).toEqual([
          { at: '2025-01-15T12:00:00Z', change: 'created', status: 'PENDING', amount: 1000 },
          { at: '2025-01-15T12:00:05Z', change: 'settled', status: 'SUCCEEDED', amount: 1000 },
          { at: '2025-01-15T12:00:05Z', change: 'refunded', status: 'SUCCEEDED', amount: 300 },
        ]);
      });

      it('records an authorization, its capture and a cancel', async () => {
        const harness = createHarness({}, hooks);
        const held = await harness.createPayment({ capture: false });
        await harness.call('POST', `/v1/payments/${held.id}/capture`, {
          body: { amount: 600 },
          headers: { 'idempotency-key': 'capture-1' },
        });
        const other = await harness.createPayment({ capture: false });
        await harness.call('POST', `/v1/payments/${other.id}/cancel`, {
          headers: { 'idempotency-key': 'cancel-1' },
        });
        const { payments } = await snapshot(harness);
        const timelines = Object.fromEntries(
          payments.map((entry: { payment: { id: string }; timeline: { change: string }[] }) => [
            entry.payment.id,
            entry.timeline.map((step) => `${step.change}:${JSON.stringify(step)}`),
          ]),
        );
        expect(timelines[held.id]).toHaveLength(2);
        expect(timelines[held.id][1]).toContain(
          '"change":"captured","status":"SUCCEEDED","amount":600',
        );
        expect(timelines[other.id][1]).toContain(
          '"change":"canceled","status":"CANCELED","amount":0',
        );
      });

      it('only ever shows the calling key: another key sees none of it', async () => {
        const harness = createHarness({}, hooks);
        await harness.createPayment();
        const mine = await snapshot(harness);
        expect(mine.payments).toHaveLength(1);
        const theirs = await snapshot(harness, OTHER_KEY);
        expect(theirs).toMatchObject({ requests: [], payments: [], events: [] });
        expect(JSON.stringify(theirs)).not.toContain(mine.payments[0].payment.id);
      });

      it('shows events with every delivery attempt and the receiver answer, and a dropped answer as status null', async () => {
        const harness = createHarness({}, hooks);
        const receiver = await startWebhookReceiver({
          answer: () => 200,
          now: () => harness.clock.now(),
        });
        try {
          const registered = await harness.call('POST', '/v1/webhook_endpoints', {
            body: { url: receiver.url },
            headers: { 'idempotency-key': 'endpoint-1' },
          });
          receiver.secret = ((await registered.json()) as { secret: string }).secret;
          await harness.json('PUT', '/_sandbox/faults', {
            body: { drop_after_commit: { count: 1 } },
          });
          const dropped = await harness.mock
            .fetch('http://sandbox.test/v1/payments', {
              method: 'POST',
              headers: {
                authorization: `Bearer ${TEST_KEY}`,
                'content-type': 'application/json',
                'idempotency-key': 'dropped-1',
              },
              body: JSON.stringify(payment('tok_test_success')),
            })
            .then(
              () => 'answered',
              () => 'dropped',
            );
          expect(dropped).toBe('dropped');
          await receiver.waitFor(1);
          const { requests, events } = await vi.waitFor(async () => {
            const body = await snapshot(harness);
            expect(body.events[0]?.deliveries).toHaveLength(1);
            return body;
          });
          expect(requests.find((r: { path: string }) => r.path === '/v1/payments')).toMatchObject({
            status: null,
            response_body: null,
          });
          expect(events).toHaveLength(1);
          expect(events[0]).toMatchObject({ type: 'payment.succeeded' });
          expect(events[0].payment_id).toMatch(/^pay_/);
          expect(events[0].deliveries[0]).toMatchObject({ attempt: 1, status: 200, error: null });
        } finally {
          await receiver.close();
        }
      });
    });
  });
}
