// Conformance: what a new server on the same store answers — as before on a durable store, nothing of it in memory.
import { describe, expect, it } from 'vitest';
import { advance, call, createBody, createPayment, newKey, paymentIds } from './client.js';
import type { SuiteCommon } from './common.js';
import { SCENARIOS, type Scenario, transcript } from './same-answers.js';

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

  describe('a second server on the store while the first runs', () => {
    const titles = {
      none: 'is a store of its own: it sees nothing of the first',
      'one server at a time':
        'is refused, naming why, and the first serves on; it opens once the first is closed',
      'a fleet':
        'answers as one sandbox with the first: a payment made on one is captured on the other, replayed on both',
    } as const;
    it(titles[manifest.sharing], async () => {
      const key = newKey('sharing');
      const first = await factory.open();
      const opened = [first];
      try {
        const created = await call(first, key, 'POST', '/v1/payments', {
          body: createBody({ capture: false }),
          idempotencyKey: 'shared',
        });
        expect(created.status).toBe(201);
        const { id } = created.body;
        if (factory.reopen === undefined) {
          const other = await factory.open();
          opened.push(other);
          expect(await paymentIds(other, key)).toEqual([]);
          return;
        }
        if (manifest.sharing === 'one server at a time') {
          await expect(factory.reopen(first)).rejects.toThrow(/in use by another sandbox/);
          expect((await createPayment(first, key)).status).toBe('SUCCEEDED');
          await first.close();
          opened.shift();
          const next = await factory.reopen(first);
          opened.push(next);
          expect(await paymentIds(next, key)).toHaveLength(2);
          return;
        }
        const second = await factory.reopen(first);
        opened.push(second);
        const captured = await call(second, key, 'POST', `/v1/payments/${id}/capture`, {
          body: {},
          idempotencyKey: 'capture',
        });
        expect(captured.body).toMatchObject({ id, status: 'SUCCEEDED' });
        const replayed = await call(first, key, 'POST', `/v1/payments/${id}/capture`, {
          body: {},
          idempotencyKey: 'capture',
        });
        expect(replayed.headers.get('idempotent-replayed')).toBe('true');
        expect(replayed.text).toBe(captured.text);
        const again = await call(second, key, 'POST', '/v1/payments', {
          body: createBody({ capture: false }),
          idempotencyKey: 'shared',
        });
        expect(again.text).toBe(created.text);
        expect(await paymentIds(second, key)).toEqual(await paymentIds(first, key));
      } finally {
        for (const sandbox of opened) await sandbox.close();
      }
    });
  });

  if (!manifest.durable) return;
  describe('a restart after every scenario of the suite', () => {
    for (const [title, options, scenario] of SCENARIOS) {
      it(`reads back byte for byte: ${title}`, async () => {
        const key = newKey('restart');
        const before = await factory.open(options);
        let after = before;
        try {
          await transcript(before, key, scenario);
          const expected = await transcript(before, key, readBack);
          await before.close();
          after = await (factory.reopen as NonNullable<typeof factory.reopen>)(before, options);
          expect(await transcript(after, key, readBack)).toEqual(expected);
        } finally {
          await after.close();
        }
      });
    }
  });
}

/** Every read of a key's state, the inspector without its recent requests (the reads add to them). */
const readBack: Scenario = async ({ send, quietly, note }) => {
  for (const path of [
    '/v1/payments?limit=100',
    '/v1/webhook_endpoints',
    '/_sandbox/clock',
    '/_sandbox/faults',
    '/_sandbox/webhook_deliveries',
  ]) {
    await send('GET', path);
  }
  const inspector = await quietly('GET', '/_sandbox/inspector');
  const { requests: _requests, ...rest } = inspector.body;
  note(
    `GET /_sandbox/inspector (without its requests) → ${inspector.status} ${JSON.stringify(rest)}`,
  );
};
