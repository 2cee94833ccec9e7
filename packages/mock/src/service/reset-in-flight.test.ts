import { describe, expect, it } from 'vitest';
import { STORES } from '../test-support/async-store.js';
import { createHarness, validCreateBody } from '../test-support/harness.js';

for (const { name: store, hooks } of STORES) {
  describe(store, () => {
    describe('a reset while a create is in flight', () => {
      it('at any step of an idempotent create: the payment and its record go together, or stay together', async () => {
        for (let delay = 0; delay < 30; delay++) {
          const { json } = createHarness({}, hooks);
          const headers = { 'idempotency-key': `race-${delay}` };
          const inFlight = json('POST', '/v1/payments', { body: validCreateBody, headers });
          for (let tick = 0; tick < delay; tick++) await new Promise((done) => setImmediate(done));
          const reset = json('POST', '/_sandbox/reset');
          const [created] = await Promise.all([inFlight, reset]);
          expect(created.status).toBe(201);
          const kept = (await json('GET', '/v1/payments')).body.data as { id: string }[];
          const retry = await json('POST', '/v1/payments', { body: validCreateBody, headers });
          expect(retry.status).toBe(201);
          // Kept: its record replays it. Reset: its record went too, so the retry creates anew.
          const replayed = retry.headers.get('idempotent-replayed') === 'true';
          expect({ delay, kept: kept.length, replayed }).toEqual({
            delay,
            kept: kept.length,
            replayed: kept.length === 1,
          });
          if (replayed) expect(retry.body.id).toBe(kept[0]?.id);
          expect((await json('GET', '/v1/payments')).body.data).toHaveLength(1);
        }
      });

      it('leaves no payment without its idempotency record', async () => {
        const { json } = createHarness({}, hooks);
        await json('PUT', '/_sandbox/faults', { body: { latency_ms: 20 } });
        const headers = { 'idempotency-key': 'in-flight-1' };
        const inFlight = json('POST', '/v1/payments', { body: validCreateBody, headers });
        await new Promise((resolve) => setImmediate(resolve)); // the create is now waiting
        const reset = await json('POST', '/_sandbox/reset');
        expect(reset.status).toBe(200);
        const created = await inFlight;
        expect(created.status).toBe(201);
        const retry = await json('POST', '/v1/payments', { body: validCreateBody, headers });
        expect(retry.status).toBe(201);
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.body.id).toBe(created.body.id);
        const list = await json('GET', '/v1/payments');
        expect(list.body.data).toHaveLength(1);
      });
    });
  });
}
