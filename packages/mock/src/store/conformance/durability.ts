// Conformance: what a new server on the same store answers — as before on a durable store, nothing of it in memory.
import { describe, expect, it } from 'vitest';
import { advance, call, createBody, createPayment, newKey, paymentIds } from './client.js';
import type { SuiteCommon } from './common.js';

/**
 * Durability, as the manifest says.
 *
 * @example
 * durabilityTests({ factory: dataDirStores(), manifest: DATA_DIR_MANIFEST });
 */
export function durabilityTests(common: SuiteCommon): void {
  const { factory, manifest } = common;
  describe('a new server on the store', () => {
    it(
      manifest.durable
        ? 'answers as the old one did: payments, replays byte for byte, endpoints, faults, clock, due work'
        : 'knows nothing of what the old one held',
      async () => {
        const key = newKey('durable');
        const options = { settlementDelaySeconds: 5 };
        const before = await factory.open(options);
        let after = before;
        try {
          const created = await call(before, key, 'POST', '/v1/payments', {
            body: createBody({ capture: false }),
            idempotencyKey: 'kept',
          });
          const pending = await createPayment(before, key, {
            payment_method: { type: 'token', token: 'tok_test_pending' },
          });
          await call(before, key, 'POST', '/v1/webhook_endpoints', {
            body: { url: 'https://receiver.example/hooks' },
          });
          const faults = { fail_next: { count: 2, status: 503 } };
          await call(before, key, 'PUT', '/_sandbox/faults', { body: faults });
          await advance(before, key, 2);
          await before.close();
          if (factory.reopen === undefined) {
            after = await factory.open(options);
            expect(await paymentIds(after, key)).toEqual([]);
            return;
          }
          after = await factory.reopen(before, options);
          // Read first and cleared: the armed failures would answer the requests below.
          expect((await call(after, key, 'GET', '/_sandbox/faults')).body).toEqual(faults);
          await call(after, key, 'DELETE', '/_sandbox/faults');
          expect(await paymentIds(after, key)).toEqual([pending.id, created.body.id]);
          const replay = await call(after, key, 'POST', '/v1/payments', {
            body: createBody({ capture: false }),
            idempotencyKey: 'kept',
          });
          expect(replay.headers.get('idempotent-replayed')).toBe('true');
          expect(replay.text).toBe(created.text);
          expect((await call(after, key, 'GET', '/v1/webhook_endpoints')).body.data).toHaveLength(
            1,
          );
          expect((await call(after, key, 'GET', '/_sandbox/clock')).body.offset_seconds).toBe(2);
          expect((await advance(after, key, 3)).settled_payments).toBe(1);
          await after.mock.webhooksSettled();
          expect(after.received.map((attempt) => attempt.type)).toContain('payment.succeeded');
        } finally {
          await after.close();
        }
      },
    );
  });
}
