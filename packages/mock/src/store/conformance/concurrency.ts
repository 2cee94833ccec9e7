// Conformance: requests of one key at once — each change counted once, every cap held, as if they came one at a time.
import { describe, expect, it } from 'vitest';
import { call, createBody, newKey, paymentIds } from './client.js';
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
    // Two more are on the branch conformance-known-bugs, failing today: concurrent clock
    // advances lose updates (every store), concurrent endpoint registrations pass the cap of 16
    // (Valkey/Redis).
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
