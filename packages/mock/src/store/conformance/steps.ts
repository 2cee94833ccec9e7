// Conformance: every atomic step of the store, through the HTTP app — a create with its record, a transition, a claim of an Idempotency-Key, a due settlement, a due webhook attempt.
import { describe, expect, it } from 'vitest';
import { advance, call, createBody, createPayment, newKey, paymentIds } from './client.js';
import { type SuiteCommon, withSandbox } from './common.js';

/**
 * The atomic steps, each checked through what a client can see afterwards.
 *
 * @example
 * stepTests({ factory: memoryStores(), manifest: MEMORY_MANIFEST });
 */
export function stepTests(common: SuiteCommon): void {
  describe('atomic steps', () => {
    it('stores a create with its Idempotency-Key record: read, listed, inspected, replayed byte for byte', () =>
      withSandbox(common, {}, async (sandbox) => {
        const key = newKey('create');
        const created = await call(sandbox, key, 'POST', '/v1/payments', {
          body: createBody({ description: 'Order 1' }),
          idempotencyKey: 'create-1',
        });
        expect(created.status).toBe(201);
        expect(created.headers.get('idempotent-replayed')).toBeNull();
        const { id } = created.body;
        expect(created.body).toMatchObject({ status: 'SUCCEEDED', amount: 1000, currency: 'KZT' });
        const read = await call(sandbox, key, 'GET', `/v1/payments/${id}`);
        expect(read.status).toBe(200);
        expect(read.body).toEqual(created.body);
        expect(await paymentIds(sandbox, key)).toEqual([id]);
        const inspector = await call(sandbox, key, 'GET', '/_sandbox/inspector');
        const inspected = inspector.body.payments as Array<{
          payment: { id: string };
          timeline: unknown[];
        }>;
        expect(inspected.map((entry) => entry.payment.id)).toEqual([id]);
        expect(inspected[0]?.timeline.length).toBeGreaterThan(0);
        const replayed = await call(sandbox, key, 'POST', '/v1/payments', {
          body: createBody({ description: 'Order 1' }),
          idempotencyKey: 'create-1',
        });
        expect(replayed.status).toBe(201);
        expect(replayed.headers.get('idempotent-replayed')).toBe('true');
        expect(replayed.text).toBe(created.text);
        expect(await paymentIds(sandbox, key)).toEqual([id]);
      }));

    it('makes a transition once: capture, refund; an illegal one answers 409 and changes nothing', () =>
      withSandbox(common, {}, async (sandbox) => {
        const key = newKey('transition');
        const { id, status } = await createPayment(sandbox, key, { capture: false });
        expect(status).toBe('AUTHORIZED');
        const captured = await call(sandbox, key, 'POST', `/v1/payments/${id}/capture`, {
          body: {},
          idempotencyKey: 'capture-1',
        });
        expect(captured.status).toBe(200);
        expect(captured.body).toMatchObject({ id, status: 'SUCCEEDED' });
        const cancelled = await call(sandbox, key, 'POST', `/v1/payments/${id}/cancel`, {
          body: {},
        });
        expect(cancelled.status).toBe(409);
        const refunded = await call(sandbox, key, 'POST', `/v1/payments/${id}/refunds`, {
          body: { amount: 400 },
        });
        expect(refunded.status).toBe(201);
        const read = await call(sandbox, key, 'GET', `/v1/payments/${id}`);
        expect(read.body).toMatchObject({ id, status: 'SUCCEEDED', amount_refunded: 400 });
        // The capture's answer was stored with it: replayed as it was, not as the payment is now.
        const replayed = await call(sandbox, key, 'POST', `/v1/payments/${id}/capture`, {
          body: {},
          idempotencyKey: 'capture-1',
        });
        expect(replayed.headers.get('idempotent-replayed')).toBe('true');
        expect(replayed.text).toBe(captured.text);
      }));

    it('makes concurrent transitions of one payment one at a time: one capture, refunds never over the amount', () =>
      withSandbox(common, {}, async (sandbox) => {
        const key = newKey('concurrent');
        const { id } = await createPayment(sandbox, key, { capture: false });
        const captures = await Promise.all(
          [1, 2, 3, 4].map(() =>
            call(sandbox, key, 'POST', `/v1/payments/${id}/capture`, { body: {} }),
          ),
        );
        expect(captures.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
        const refunds = await Promise.all(
          [1, 2, 3, 4, 5].map(() =>
            call(sandbox, key, 'POST', `/v1/payments/${id}/refunds`, { body: { amount: 300 } }),
          ),
        );
        const made = refunds.filter((answer) => answer.status === 201);
        expect(made).toHaveLength(3);
        // Refused as over the amount on every store, as memory refuses them: a request that lost
        // its compare-and-set reads the payment again and checks its refund anew.
        for (const answer of refunds.filter((refund) => refund.status !== 201)) {
          expect(answer.status).toBe(400);
          expect(answer.body).toMatchObject({
            code: 'invalid_request',
            param: 'amount',
            detail: 'amount must be at most what remains to refund, 100; got 300.',
          });
        }
        expect(new Set(made.map((answer) => answer.body.id)).size).toBe(3);
        const read = await call(sandbox, key, 'GET', `/v1/payments/${id}`);
        expect(read.body).toMatchObject({
          status: 'SUCCEEDED',
          amount_captured: 1000,
          amount_refunded: 900,
        });
        const inspector = await call(sandbox, key, 'GET', '/_sandbox/inspector');
        const [inspected] = inspector.body.payments as Array<{
          timeline: Array<{ change: string }>;
        }>;
        expect(inspected?.timeline.map((step) => step.change)).toEqual([
          expect.any(String),
          expect.any(String),
          expect.any(String),
          expect.any(String),
          expect.any(String),
        ]);
      }));

    it('claims an Idempotency-Key once: a replay, 422 for another body or path, one payment of concurrent claims', () =>
      withSandbox(common, {}, async (sandbox) => {
        const key = newKey('claim');
        const first = await createPayment(sandbox, key, {}, 'claim-1');
        const otherBody = await call(sandbox, key, 'POST', '/v1/payments', {
          body: createBody({ amount: 2000 }),
          idempotencyKey: 'claim-1',
        });
        expect(otherBody.status).toBe(422);
        expect(otherBody.body.code).toBe('idempotency_key_reused');
        const otherPath = await call(sandbox, key, 'POST', `/v1/payments/${first.id}/refunds`, {
          body: { amount: 1 },
          idempotencyKey: 'claim-1',
        });
        expect(otherPath.status).toBe(422);
        const answers = await Promise.all(
          [1, 2, 3, 4].map(() =>
            call(sandbox, key, 'POST', '/v1/payments', {
              body: createBody(),
              idempotencyKey: 'claim-2',
            }),
          ),
        );
        const made = new Set<string>();
        for (const answer of answers) {
          expect([201, 409]).toContain(answer.status);
          if (answer.status === 201) made.add(answer.body.id);
          else expect(answer.body.code).toBe('idempotency_key_in_use');
        }
        expect(made.size).toBe(1);
        expect(await paymentIds(sandbox, key)).toEqual([...made, first.id]);
        // Nothing was refunded by the refused request.
        const read = await call(sandbox, key, 'GET', `/v1/payments/${first.id}`);
        expect(read.body.amount_refunded).toBe(0);
      }));

    it('settles a pending payment when the key clock reaches it, not before, once', () =>
      withSandbox(common, { settlementDelaySeconds: 5 }, async (sandbox) => {
        const key = newKey('settle');
        const { id, status } = await createPayment(sandbox, key, {
          payment_method: { type: 'token', token: 'tok_test_pending' },
        });
        expect(status).toBe('PENDING');
        expect((await advance(sandbox, key, 4)).settled_payments).toBe(0);
        expect((await call(sandbox, key, 'GET', `/v1/payments/${id}`)).body.status).toBe('PENDING');
        expect((await advance(sandbox, key, 1)).settled_payments).toBe(1);
        expect((await call(sandbox, key, 'GET', `/v1/payments/${id}`)).body.status).toBe(
          'SUCCEEDED',
        );
        expect((await advance(sandbox, key, 60)).settled_payments).toBe(0);
      }));

    it('makes a due webhook attempt once: a failed one is retried when due on the key clock', () =>
      withSandbox(common, {}, async (sandbox) => {
        const key = newKey('attempt');
        const endpoint = await call(sandbox, key, 'POST', '/v1/webhook_endpoints', {
          body: { url: 'https://receiver.example/hooks' },
        });
        expect(endpoint.status).toBe(201);
        sandbox.receiverStatus = 500;
        const payment = await createPayment(sandbox, key);
        await sandbox.mock.webhooksSettled();
        expect(sandbox.received.map((attempt) => attempt.type)).toEqual(['payment.succeeded']);
        const eventId = sandbox.received[0]?.eventId;
        expect(JSON.parse(sandbox.received[0]?.body ?? '{}').data.object.id).toBe(payment.id);
        // The first retry is due 5 s ± 20% later: not at 3 s, by 7 s.
        await advance(sandbox, key, 3);
        expect(sandbox.received).toHaveLength(1);
        sandbox.receiverStatus = 200;
        await advance(sandbox, key, 4);
        expect(sandbox.received.map((attempt) => attempt.eventId)).toEqual([eventId, eventId]);
        await advance(sandbox, key, 86_400);
        expect(sandbox.received).toHaveLength(2);
        const log = await call(
          sandbox,
          key,
          'GET',
          `/_sandbox/webhook_deliveries?event_id=${eventId}`,
        );
        expect(log.status).toBe(200);
        expect(
          log.body.data.map((entry: { attempt: number; status: number | null }) => [
            entry.attempt,
            entry.status,
          ]),
        ).toEqual([
          [2, 200],
          [1, 500],
        ]);
      }));
  });
}
