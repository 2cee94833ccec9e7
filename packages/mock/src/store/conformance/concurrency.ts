// Conformance: requests of one key at once — each change counted once, every cap held, as if they came one at a time.
import { describe, expect, it } from 'vitest';
import { call, createBody, createPayment, newKey, paymentIds } from './client.js';
import { type SuiteCommon, withSandbox } from './common.js';

/** `count` copies of one request, sent at once. */
function atOnce<T>(count: number, send: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => send(index)));
}

/**
 * Concurrency on one key.
 *
 * @example
 * concurrencyTests({ factory: redisStores(), manifest: REDIS_MANIFEST });
 */
export function concurrencyTests(common: SuiteCommon): void {
  describe('requests of one key at once', () => {
    it('move the key clock by the sum of their advances', () =>
      withSandbox(common, {}, async (sandbox) => {
        const key = newKey('advances');
        const answers = await atOnce(6, () =>
          call(sandbox, key, 'POST', '/_sandbox/clock/advance', { body: { seconds: 10 } }),
        );
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
        // Each answers the offset its own advance made: 10, 20, … 60, in some order.
        expect(answers.map((answer) => answer.body.offset_seconds).sort((a, b) => a - b)).toEqual([
          10, 20, 30, 40, 50, 60,
        ]);
        const clock = await call(sandbox, key, 'GET', '/_sandbox/clock');
        expect(clock.body.offset_seconds).toBe(60);
      }));

    it('register at most 16 webhook endpoints, the others refused with 409', () =>
      withSandbox(common, {}, async (sandbox) => {
        const key = newKey('endpoints');
        const answers = await atOnce(20, (index) =>
          call(sandbox, key, 'POST', '/v1/webhook_endpoints', {
            body: { url: `https://receiver.example/${index}` },
          }),
        );
        const made = answers.filter((answer) => answer.status === 201);
        expect(made).toHaveLength(16);
        for (const answer of answers.filter((each) => each.status !== 201)) {
          expect(answer.status).toBe(409);
          expect(answer.body.code).toBe('webhook_endpoint_limit_reached');
        }
        const listed = await call(sandbox, key, 'GET', '/v1/webhook_endpoints');
        expect(listed.body.data.map((endpoint: { id: string }) => endpoint.id).sort()).toEqual(
          made.map((answer) => answer.body.id).sort(),
        );
      }));

    it('fail as many times as fail_next says, and no more', () =>
      withSandbox(common, {}, async (sandbox) => {
        const key = newKey('fail_next');
        await call(sandbox, key, 'PUT', '/_sandbox/faults', {
          body: { fail_next: { count: 2, status: 503 } },
        });
        const answers = await atOnce(6, () => call(sandbox, key, 'GET', '/v1/payments'));
        expect(answers.map((answer) => answer.status).sort()).toEqual([
          200, 200, 200, 200, 503, 503,
        ]);
        expect((await call(sandbox, key, 'GET', '/_sandbox/faults')).body).toEqual({});
      }));

    it('delete an endpoint once: one 200, the other 404', () =>
      withSandbox(common, {}, async (sandbox) => {
        const key = newKey('delete');
        const made = await call(sandbox, key, 'POST', '/v1/webhook_endpoints', {
          body: { url: 'https://receiver.example/once' },
        });
        const answers = await atOnce(2, () =>
          call(sandbox, key, 'DELETE', `/v1/webhook_endpoints/${made.body.id}`),
        );
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404]);
        expect((await call(sandbox, key, 'GET', '/v1/webhook_endpoints')).body.data).toEqual([]);
      }));

    it('capture or cancel a payment, not both: the winner is what the payment shows', () =>
      withSandbox(common, {}, async (sandbox) => {
        const key = newKey('capture_cancel');
        const { id } = await createPayment(sandbox, key, { capture: false });
        const [captured, cancelled] = await Promise.all([
          call(sandbox, key, 'POST', `/v1/payments/${id}/capture`, { body: {} }),
          call(sandbox, key, 'POST', `/v1/payments/${id}/cancel`, { body: {} }),
        ]);
        expect([captured?.status, cancelled?.status].sort()).toEqual([200, 409]);
        const winner = captured?.status === 200 ? captured : cancelled;
        const read = await call(sandbox, key, 'GET', `/v1/payments/${id}`);
        expect(read.body).toEqual(winner?.body);
      }));

    it('with a reset among creates, delete exactly what was made before it', () =>
      withSandbox(common, {}, async (sandbox) => {
        const key = newKey('reset_creates');
        await paymentIds(sandbox, key);
        const creates = atOnce(5, (index) =>
          call(sandbox, key, 'POST', '/v1/payments', { body: createBody({ amount: 10 + index }) }),
        );
        const reset = call(sandbox, key, 'POST', '/_sandbox/reset');
        const [made, deleted] = await Promise.all([creates, reset]);
        expect(made.map((answer) => answer.status)).toEqual(Array(5).fill(201));
        const kept = await paymentIds(sandbox, key);
        expect(kept.length + deleted.body.deleted_payments).toBe(5);
        for (const id of kept) expect(made.map((answer) => answer.body.id)).toContain(id);
      }));

    it('make every payment and keep the newest maxPaymentsPerKey of them', () =>
      withSandbox(common, { maxPaymentsPerKey: 3 }, async (sandbox) => {
        const key = newKey('creates');
        const answers = await atOnce(8, (index) =>
          call(sandbox, key, 'POST', '/v1/payments', {
            body: createBody({ amount: 100 + index }),
            idempotencyKey: `c-${index}`,
          }),
        );
        expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201));
        const ids = answers.map((answer) => answer.body.id as string);
        expect(new Set(ids).size).toBe(8);
        const kept = await paymentIds(sandbox, key);
        expect(kept).toHaveLength(3);
        for (const id of kept) expect(ids).toContain(id);
        // Records follow the same cap: at most three of the eight are replayed.
        const replays = await atOnce(8, (index) =>
          call(sandbox, key, 'POST', '/v1/payments', {
            body: createBody({ amount: 100 + index }),
            idempotencyKey: `c-${index}`,
          }),
        );
        const replayed = replays.filter((answer) => answer.headers.get('idempotent-replayed'));
        expect(replayed.length).toBeLessThanOrEqual(3);
      }));
  });
}
