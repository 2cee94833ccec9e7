// Conformance: reset, and one key's traffic never touching another key's data.
import { describe, expect, it } from 'vitest';
import { advance, call, createBody, createPayment, newKey, paymentIds } from './client.js';
import { type SuiteCommon, withSandbox } from './common.js';

/**
 * Reset and per-key isolation.
 *
 * @example
 * isolationTests({ factory: memoryStores(), manifest: MEMORY_MANIFEST });
 */
export function isolationTests(common: SuiteCommon): void {
  describe('reset', () => {
    it('deletes everything of the key: payments, Idempotency-Keys, endpoints, faults, clock; the key starts afresh', () =>
      withSandbox(common, { settlementDelaySeconds: 5 }, async (sandbox) => {
        const key = newKey('reset');
        await call(sandbox, key, 'POST', '/v1/webhook_endpoints', {
          body: { url: 'https://receiver.example/hooks' },
        });
        const kept = await createPayment(sandbox, key, {}, 'before-reset');
        await createPayment(sandbox, key, {
          payment_method: { type: 'token', token: 'tok_test_pending' },
        });
        await call(sandbox, key, 'PUT', '/_sandbox/faults', {
          body: { fail_next: { count: 5, status: 503 } },
        });
        await advance(sandbox, key, 1);
        const reset = await call(sandbox, key, 'POST', '/_sandbox/reset');
        expect(reset.status).toBe(200);
        expect(reset.body.deleted_payments).toBe(2);
        expect(await paymentIds(sandbox, key)).toEqual([]);
        expect((await call(sandbox, key, 'GET', `/v1/payments/${kept.id}`)).status).toBe(404);
        expect((await call(sandbox, key, 'GET', '/v1/webhook_endpoints')).body.data).toEqual([]);
        expect((await call(sandbox, key, 'GET', '/_sandbox/faults')).body).toEqual({});
        expect((await call(sandbox, key, 'GET', '/_sandbox/clock')).body.offset_seconds).toBe(0);
        // Nothing left to settle, and the Idempotency-Key makes a new payment.
        expect((await advance(sandbox, key, 60)).settled_payments).toBe(0);
        const again = await call(sandbox, key, 'POST', '/v1/payments', {
          body: createBody(),
          idempotencyKey: 'before-reset',
        });
        expect(again.status).toBe(201);
        expect(again.headers.get('idempotent-replayed')).toBeNull();
        expect(again.body.id).not.toBe(kept.id);
        const twice = await call(sandbox, key, 'POST', '/_sandbox/reset');
        expect(twice.body.deleted_payments).toBe(1);
      }));
  });

  describe('a reset after requests answered', () => {
    it("deletes their inspector records too: the key's log holds the reset alone", () =>
      withSandbox(common, {}, async (sandbox) => {
        // A new key's first requests (its account opened by their records), then one with data.
        for (const [key, creates] of [
          [newKey('reset_log_new'), 0],
          [newKey('reset_log'), 1],
        ] as const) {
          if (creates > 0) await createPayment(sandbox, key);
          await call(sandbox, key, 'GET', '/v1/payments');
          await call(sandbox, key, 'GET', '/v1/payments/pay_none');
          const reset = await call(sandbox, key, 'POST', '/_sandbox/reset');
          expect(reset.body.deleted_payments).toBe(creates);
          const inspector = await call(sandbox, key, 'GET', '/_sandbox/inspector');
          const requests = inspector.body.requests as { method: string; path: string }[];
          expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
            'POST /_sandbox/reset',
          ]);
        }
      }));
  });

  describe('a reset racing a create', () => {
    it('keeps the payment and its Idempotency-Key answer together, or neither, wherever the reset lands', () =>
      withSandbox(common, {}, async (sandbox) => {
        // Both outcomes occur on every store over these delays (seen: the payment kept at one
        // delay, deleted with its answer at the others).
        for (let delay = 0; delay < 12; delay++) {
          const key = newKey('race');
          // Seen before, as most keys are: the create is not the key's first request.
          await paymentIds(sandbox, key);
          const creating = call(sandbox, key, 'POST', '/v1/payments', {
            body: createBody(),
            idempotencyKey: 'race',
          });
          for (let tick = 0; tick < delay; tick++) await new Promise((done) => setImmediate(done));
          const [created, reset] = await Promise.all([
            creating,
            call(sandbox, key, 'POST', '/_sandbox/reset'),
          ]);
          expect(created.status).toBe(201);
          expect(reset.status).toBe(200);
          const kept = await paymentIds(sandbox, key);
          const retry = await call(sandbox, key, 'POST', '/v1/payments', {
            body: createBody(),
            idempotencyKey: 'race',
          });
          expect(retry.status).toBe(201);
          if (kept.length === 1) {
            // Kept: with its answer.
            expect(kept).toEqual([created.body.id]);
            expect(retry.headers.get('idempotent-replayed')).toBe('true');
            expect(retry.text).toBe(created.text);
          } else {
            // Deleted: with its answer, so the retry makes the payment again.
            expect(kept).toEqual([]);
            expect(retry.headers.get('idempotent-replayed')).toBeNull();
            expect(await paymentIds(sandbox, key)).toEqual([retry.body.id]);
          }
        }
      }));
  });

  describe('per-key isolation', () => {
    it("never lets one key's requests read, replay, settle, fault or reset another key's data", () =>
      withSandbox(common, { settlementDelaySeconds: 5 }, async (sandbox) => {
        const mine = newKey('mine');
        const theirs = newKey('theirs');
        const their = await createPayment(
          sandbox,
          theirs,
          { payment_method: { type: 'token', token: 'tok_test_pending' } },
          'shared-name',
        );
        // Reading, changing, listing and paging by their id: as if it did not exist.
        expect((await call(sandbox, mine, 'GET', `/v1/payments/${their.id}`)).status).toBe(404);
        for (const action of ['capture', 'cancel']) {
          const answer = await call(sandbox, mine, 'POST', `/v1/payments/${their.id}/${action}`, {
            body: {},
          });
          expect(answer.status).toBe(404);
        }
        expect(await paymentIds(sandbox, mine)).toEqual([]);
        // The same Idempotency-Key is mine to use: a new payment, not their replay.
        const own = await createPayment(sandbox, mine, { amount: 5 }, 'shared-name');
        expect(own.id).not.toBe(their.id);
        // My faults, clock and reset stay mine.
        await call(sandbox, mine, 'PUT', '/_sandbox/faults', {
          body: { fail_next: { count: 1, status: 503 } },
        });
        expect((await advance(sandbox, mine, 60)).settled_payments).toBe(0);
        const read = await call(sandbox, theirs, 'GET', `/v1/payments/${their.id}`);
        expect(read.status).toBe(200);
        expect(read.body.status).toBe('PENDING');
        expect((await call(sandbox, mine, 'POST', '/_sandbox/reset')).body.deleted_payments).toBe(
          1,
        );
        expect(await paymentIds(sandbox, theirs)).toEqual([their.id]);
        const replay = await call(sandbox, theirs, 'POST', '/v1/payments', {
          body: createBody({ payment_method: { type: 'token', token: 'tok_test_pending' } }),
          idempotencyKey: 'shared-name',
        });
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.body.id).toBe(their.id);
        expect((await advance(sandbox, theirs, 5)).settled_payments).toBe(1);
      }));

    it("never sends one key's events to another key's endpoints, nor shows it another key's requests", () =>
      withSandbox(common, {}, async (sandbox) => {
        const mine = newKey('mine');
        const theirs = newKey('theirs');
        await call(sandbox, mine, 'POST', '/v1/webhook_endpoints', {
          body: { url: 'https://receiver.example/mine' },
        });
        const their = await createPayment(sandbox, theirs, { description: 'theirs alone' });
        await sandbox.settled();
        expect(sandbox.received).toEqual([]);
        const own = await createPayment(sandbox, mine);
        await sandbox.settled();
        expect(sandbox.received.map((attempt) => JSON.parse(attempt.body).data.object.id)).toEqual([
          own.id,
        ]);
        const inspector = (await call(sandbox, mine, 'GET', '/_sandbox/inspector')).text;
        expect(inspector).toContain(own.id);
        expect(inspector).not.toContain(their.id);
        expect(inspector).not.toContain('theirs alone');
        const deliveries = await call(sandbox, theirs, 'GET', '/_sandbox/webhook_deliveries');
        expect(deliveries.body.data).toEqual([]);
      }));
  });
}
