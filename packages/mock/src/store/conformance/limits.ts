// Conformance: the caps and byte budgets per key and over the whole sandbox, and what each evicts or refuses.
import { describe, expect, it } from 'vitest';
import { MIN_KEY_MEMORY_BUDGET_BYTES } from '../../app/options.js';
import { call, createBody, createPayment, newKey, paymentIds } from './client.js';
import { type SuiteCommon, withSandbox } from './common.js';
import type { Sandbox } from './sandbox.js';

/** The smallest budgets the options allow: a few large payments fill the global one. */
const SMALL_BUDGETS = {
  keyMemoryBudgetBytes: MIN_KEY_MEMORY_BUDGET_BYTES,
  memoryBudgetBytes: 65_536,
};
/** A create of the largest description. */
const LARGE = { description: 'd'.repeat(1000) };

/** Creates payments of `key` until one is refused or `most` are made; returns the ids made and the refusal. */
async function fill(sandbox: Sandbox, key: string, most: number) {
  const made: string[] = [];
  for (let index = 0; index < most; index++) {
    const answer = await call(sandbox, key, 'POST', '/v1/payments', {
      body: createBody(LARGE),
      idempotencyKey: `fill-${index}`,
    });
    if (answer.status !== 201) return { made, refused: answer };
    made.push(answer.body.id);
  }
  return { made, refused: undefined };
}

/**
 * Caps, budgets and eviction.
 *
 * @example
 * limitTests({ factory: dataDirStores(), manifest: DATA_DIR_MANIFEST });
 */
export function limitTests(common: SuiteCommon): void {
  describe('caps and byte budgets', () => {
    it("evicts the key's oldest payment beyond maxPaymentsPerKey, never another key's", () =>
      withSandbox(common, { maxPaymentsPerKey: 3 }, async (sandbox) => {
        const other = newKey('other');
        const theirs = await createPayment(sandbox, other);
        const key = newKey('cap');
        const made: string[] = [];
        for (let index = 0; index < 5; index++) made.push((await createPayment(sandbox, key)).id);
        expect(await paymentIds(sandbox, key)).toEqual(made.slice(2).reverse());
        expect((await call(sandbox, key, 'GET', `/v1/payments/${made[0]}`)).status).toBe(404);
        expect(await paymentIds(sandbox, other)).toEqual([theirs.id]);
      }));

    it('keeps at most maxPaymentsPerKey Idempotency-Key records, the oldest forgotten first, though the newest sorts first', () =>
      withSandbox(common, { maxPaymentsPerKey: 4 }, async (sandbox) => {
        // All made at one instant; the newest one's name sorts before the others'.
        const key = newKey('records');
        const made = new Map<string, string>();
        for (const name of ['b', 'c', 'd', 'e', 'a']) {
          made.set(name, (await createPayment(sandbox, key, {}, name)).id);
        }
        for (const name of ['a', 'c', 'd', 'e']) {
          const replay = await call(sandbox, key, 'POST', '/v1/payments', {
            body: createBody(),
            idempotencyKey: name,
          });
          expect(replay.headers.get('idempotent-replayed'), name).toBe('true');
          expect(replay.body.id).toBe(made.get(name));
        }
        const forgotten = await call(sandbox, key, 'POST', '/v1/payments', {
          body: createBody(),
          idempotencyKey: 'b',
        });
        expect(forgotten.status).toBe(201);
        expect(forgotten.headers.get('idempotent-replayed')).toBeNull();
        expect(forgotten.body.id).not.toBe(made.get('b'));
      }));

    it("keeps a key within its byte budget by forgetting its own oldest data, never another key's", () =>
      withSandbox(
        common,
        { limits: { keyMemoryBudgetBytes: MIN_KEY_MEMORY_BUDGET_BYTES } },
        async (sandbox) => {
          const other = newKey('other');
          const theirs = await createPayment(sandbox, other, LARGE);
          const key = newKey('budget');
          const { made, refused } = await fill(sandbox, key, 60);
          expect(refused).toBeUndefined();
          const kept = await paymentIds(sandbox, key);
          // The newest ones, in order, and not all of them: the oldest went first.
          expect(kept.length).toBeGreaterThan(1);
          expect(kept.length).toBeLessThan(made.length);
          expect(kept).toEqual(made.slice(made.length - kept.length).reverse());
          expect((await call(sandbox, key, 'GET', `/v1/payments/${made[0]}`)).status).toBe(404);
          expect(await paymentIds(sandbox, other)).toEqual([theirs.id]);
        },
      ));

    it('replays every Idempotency-Key at the smallest key budget, however full the key’s request log', () =>
      withSandbox(
        common,
        { limits: { keyMemoryBudgetBytes: MIN_KEY_MEMORY_BUDGET_BYTES } },
        async (sandbox) => {
          // Before the floor (16 KiB allowed), the request log filled the key's budget after a few
          // requests and each new record was forgotten at once: a retry made a second payment.
          const key = newKey('floor');
          for (let index = 0; index < 60; index++) {
            const send = {
              body: createBody({ description: 'r'.repeat(300) }),
              idempotencyKey: `r-${index}`,
            };
            const created = await call(sandbox, key, 'POST', '/v1/payments', send);
            const retried = await call(sandbox, key, 'POST', '/v1/payments', send);
            expect(created.status).toBe(201);
            expect(retried.headers.get('idempotent-replayed'), `retry ${index}`).toBe('true');
            expect(retried.text).toBe(created.text);
          }
        },
      ));

    it('refuses new work past the global budget with 503 sandbox_full, still serving reads and replays, taking nothing from any key', () =>
      withSandbox(common, { limits: SMALL_BUDGETS }, async (sandbox) => {
        // What each key holds once it has made its payments (its own budget may have evicted some).
        const held = new Map<string, string[]>();
        let refusal: Awaited<ReturnType<typeof fill>>['refused'];
        for (let index = 0; index < 12 && refusal === undefined; index++) {
          const key = newKey(`full${index}`);
          const { made, refused } = await fill(sandbox, key, 3);
          refusal = refused;
          if (made.length > 0) held.set(key, await paymentIds(sandbox, key));
        }
        expect(refusal?.status).toBe(503);
        expect(refusal?.body.code).toBe('sandbox_full');
        expect(refusal?.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(held.size).toBeGreaterThan(1);
        // Filling the sandbox took nothing from the keys that came before.
        for (const [key, ids] of held) expect(await paymentIds(sandbox, key)).toEqual(ids);
        const [firstKey, firstHeld] = [...held][0] as [string, string[]];
        const newest = firstHeld[0] as string;
        const read = await call(sandbox, firstKey, 'GET', `/v1/payments/${newest}`);
        expect(read.status).toBe(200);
        const replay = await call(sandbox, firstKey, 'POST', '/v1/payments', {
          body: createBody(LARGE),
          idempotencyKey: 'fill-2',
        });
        expect(replay.status).toBe(201);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.body.id).toBe(newest);
        const stranger = newKey('stranger');
        expect(await paymentIds(sandbox, stranger)).toEqual([]);
        expect(
          (await call(sandbox, stranger, 'POST', '/v1/payments', { body: createBody() })).status,
        ).toBe(503);
        // An hour later on the server's clock every key is idle: forgotten to make room where
        // idleness is judged by that clock; where the store's own time judges it, still full.
        sandbox.clock.advance(61 * 60 * 1000);
        const later = await call(sandbox, stranger, 'POST', '/v1/payments', { body: createBody() });
        if (common.manifest.idleClock === 'server') {
          expect(later.status).toBe(201);
          const remaining = await Promise.all(
            [...held.keys()].map((key) => paymentIds(sandbox, key)),
          );
          expect(remaining.some((ids) => ids.length === 0)).toBe(true);
        } else {
          expect(later.status).toBe(503);
          expect(later.body.code).toBe('sandbox_full');
          expect(await paymentIds(sandbox, firstKey)).toEqual(firstHeld);
        }
      }));

    it('leaves no trace of a sandbox_full refusal: the refused new key holds nothing, not even the refused request in its inspector', () =>
      withSandbox(common, { maxPaymentsTotal: 2 }, async (sandbox) => {
        const holder = newKey('full_holder');
        await createPayment(sandbox, holder);
        await createPayment(sandbox, holder);
        const stranger = newKey('full_stranger');
        for (const idempotencyKey of [undefined, 'refused-1', 'refused-1']) {
          const refused = await call(sandbox, stranger, 'POST', '/v1/payments', {
            body: createBody(),
            ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
          });
          expect(refused.status).toBe(503);
          expect(refused.body.code).toBe('sandbox_full');
        }
        const seen = await call(sandbox, stranger, 'GET', '/_sandbox/inspector');
        expect(seen.status).toBe(200);
        expect(seen.body.requests).toEqual([]);
        expect(seen.body.payments).toEqual([]);
        // A key that holds data keeps the record of its own refusal, as of any answer.
        const mine = await call(sandbox, holder, 'POST', '/v1/payments', { body: createBody() });
        expect(mine.status).toBe(503);
        const held = await call(sandbox, holder, 'GET', '/_sandbox/inspector');
        expect(held.body.requests[0]).toMatchObject({ status: 503, code: 'sandbox_full' });
        // Room again: the refused key starts from nothing (its Idempotency-Key was never held).
        expect((await call(sandbox, holder, 'POST', '/_sandbox/reset')).status).toBe(200);
        const made = await call(sandbox, stranger, 'POST', '/v1/payments', {
          body: createBody(),
          idempotencyKey: 'refused-1',
        });
        expect(made.status).toBe(201);
        expect(made.headers.get('idempotent-replayed')).toBeNull();
        const after = await call(sandbox, stranger, 'GET', '/_sandbox/inspector');
        expect(after.body.requests.map((request: { status: number }) => request.status)).toEqual([
          201,
        ]);
      }));

    it('refuses new work past maxPaymentsTotal with 503 sandbox_full until a key makes room', () =>
      withSandbox(common, { maxPaymentsTotal: 4 }, async (sandbox) => {
        const first = newKey('total_a');
        const second = newKey('total_b');
        const theirs = [
          await createPayment(sandbox, first, {}, 'a-1'),
          await createPayment(sandbox, first),
        ];
        await createPayment(sandbox, second);
        await createPayment(sandbox, second);
        const refused = await call(sandbox, second, 'POST', '/v1/payments', { body: createBody() });
        expect(refused.status).toBe(503);
        expect(refused.body.code).toBe('sandbox_full');
        const replay = await call(sandbox, first, 'POST', '/v1/payments', {
          body: createBody(),
          idempotencyKey: 'a-1',
        });
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(await paymentIds(sandbox, first)).toEqual(theirs.map((p) => p.id).reverse());
        expect((await call(sandbox, second, 'POST', '/_sandbox/reset')).body.deleted_payments).toBe(
          2,
        );
        expect(
          (await call(sandbox, second, 'POST', '/v1/payments', { body: createBody() })).status,
        ).toBe(201);
      }));
  });
}
