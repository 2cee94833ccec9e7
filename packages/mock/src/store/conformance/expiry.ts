// Conformance: what expires — Idempotency-Key records after their time on either clock, and a key's oldest events past its budget.
import { describe, expect, it } from 'vitest';
import { MIN_KEY_MEMORY_BUDGET_BYTES } from '../../app/options.js';
import { advance, call, createBody, createPayment, newKey } from './client.js';
import { type SuiteCommon, withSandbox } from './common.js';

/**
 * Expiry of idempotency records and events.
 *
 * @example
 * expiryTests({ factory: redisStores(), manifest: REDIS_MANIFEST });
 */
export function expiryTests(common: SuiteCommon): void {
  describe('expiry', () => {
    it("replays an Idempotency-Key until idempotencyTtlSeconds have passed on the key's clock, then makes a new payment", () =>
      withSandbox(common, { idempotencyTtlSeconds: 60 }, async (sandbox) => {
        const key = newKey('ttl_key_clock');
        const first = await createPayment(sandbox, key, {}, 'ttl');
        await advance(sandbox, key, 59);
        const replay = await call(sandbox, key, 'POST', '/v1/payments', {
          body: createBody(),
          idempotencyKey: 'ttl',
        });
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.body.id).toBe(first.id);
        await advance(sandbox, key, 2);
        const fresh = await call(sandbox, key, 'POST', '/v1/payments', {
          body: createBody({ amount: 7 }),
          idempotencyKey: 'ttl',
        });
        expect(fresh.status).toBe(201);
        expect(fresh.headers.get('idempotent-replayed')).toBeNull();
        expect(fresh.body.id).not.toBe(first.id);
      }));

    it("expires an Idempotency-Key record as the server's clock passes its time", () =>
      withSandbox(common, { idempotencyTtlSeconds: 60 }, async (sandbox) => {
        const key = newKey('ttl_server_clock');
        const first = await createPayment(sandbox, key, {}, 'ttl');
        sandbox.clock.advance(59_000);
        const replay = await call(sandbox, key, 'POST', '/v1/payments', {
          body: createBody(),
          idempotencyKey: 'ttl',
        });
        expect(replay.body.id).toBe(first.id);
        sandbox.clock.advance(2_000);
        const fresh = await call(sandbox, key, 'POST', '/v1/payments', {
          body: createBody({ amount: 7 }),
          idempotencyKey: 'ttl',
        });
        expect(fresh.status).toBe(201);
        expect(fresh.body.id).not.toBe(first.id);
      }));

    it("forgets the key's oldest events past its byte budget: a forgotten one is not redelivered, a kept one is", () =>
      withSandbox(
        common,
        { limits: { keyMemoryBudgetBytes: MIN_KEY_MEMORY_BUDGET_BYTES } },
        async (sandbox) => {
          const key = newKey('events');
          await call(sandbox, key, 'POST', '/v1/webhook_endpoints', {
            body: { url: 'https://receiver.example/hooks' },
          });
          // Half the key's budget is its webhook state's: about 40 of these events fill it.
          const count = 60;
          for (let index = 0; index < count; index++) {
            await createPayment(sandbox, key, { description: 'e'.repeat(1000) });
          }
          await sandbox.mock.webhooksSettled();
          const events = sandbox.received.map((attempt) => attempt.eventId);
          expect(events).toHaveLength(count);
          const oldest = await call(
            sandbox,
            key,
            'POST',
            `/_sandbox/events/${events[0]}/redeliver`,
          );
          expect(oldest.status).toBe(404);
          expect(oldest.body.code).toBe('not_found');
          const last = events[count - 1];
          const newest = await call(sandbox, key, 'POST', `/_sandbox/events/${last}/redeliver`);
          expect(newest.status).toBe(200);
          expect(newest.body.event_id).toBe(last);
          await sandbox.mock.webhooksSettled();
          expect(sandbox.received.at(-1)?.eventId).toBe(last);
        },
      ));
  });
}
