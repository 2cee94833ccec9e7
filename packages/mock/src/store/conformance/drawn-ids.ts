// Conformance: a seeded server never draws an id its store already holds (payments, webhook endpoints, events), after a restart or beside another instance.
import { describe, expect, it } from 'vitest';
import { type Body, call, createPayment, newKey, paymentIds } from './client.js';
import type { SuiteCommon } from './common.js';
import type { Sandbox } from './sandbox.js';

/** What one server made of a key, as it answered. */
interface Made {
  endpoint: Body;
  payments: Body[];
}

/** The same requests on any server of the suite's seed: an endpoint, then two payments. */
async function makeOn(sandbox: Sandbox, key: string, idempotencyKey: string): Promise<Made> {
  const registered = await call(sandbox, key, 'POST', '/v1/webhook_endpoints', {
    body: { url: 'https://receiver.example/hooks' },
  });
  expect(registered.status).toBe(201);
  const payments = [
    await createPayment(sandbox, key, { capture: false }),
    await createPayment(sandbox, key, {}, idempotencyKey),
  ];
  await sandbox.settled();
  return { endpoint: registered.body, payments };
}

/** The ids of the events the key's delivery log names, each once, in the log's order. */
async function eventIds(sandbox: Sandbox, key: string): Promise<string[]> {
  const log = await call(sandbox, key, 'GET', '/_sandbox/webhook_deliveries');
  expect(log.status).toBe(200);
  return [...new Set((log.body.data as Body[]).map((entry) => String(entry.event_id)))];
}

/** Every item of `list` once only. */
function expectDistinct(list: readonly string[]): void {
  expect(new Set(list).size, list.join(', ')).toBe(list.length);
}

/**
 * Ids drawn from the seed: a new server with the same seed draws them again in the same order
 * on a fresh store, and draws again each one its store already holds.
 *
 * @example
 * drawnIdTests({ factory: redisStores(), manifest: REDIS_MANIFEST });
 */
export function drawnIdTests(common: SuiteCommon): void {
  const { factory, manifest } = common;
  const title = manifest.durable
    ? manifest.sharing === 'a fleet'
      ? 'two servers with one seed on the store draw no id the other made: no payment, endpoint or event overwritten'
      : 'a server restarted with the same seed draws no id its store holds: no payment, endpoint or event overwritten'
    : 'a new server with the same seed draws the same ids on its fresh store';
  describe('ids drawn from the seed', () => {
    it(title, async () => {
      const key = newKey('drawn');
      const first = await factory.open();
      const opened = [first];
      try {
        const before = await makeOn(first, key, 'first');
        if (factory.reopen === undefined) {
          const fresh = await factory.open();
          opened.push(fresh);
          const again = await makeOn(fresh, key, 'first');
          expect(again.endpoint.id).toBe(before.endpoint.id);
          expect(again.payments.map((payment) => payment.id)).toEqual(
            before.payments.map((payment) => payment.id),
          );
          expect(await eventIds(fresh, key)).toEqual(await eventIds(first, key));
          return;
        }
        if (manifest.sharing !== 'a fleet') {
          await first.close();
          opened.shift();
        }
        const second = await factory.reopen(first);
        opened.push(second);
        // Other keys' draws first (an endpoint, a payment without one), so that the next event
        // of `key`, its first payment's capture, is drawn just where the first server drew its own.
        const register = { body: { url: 'https://receiver.example/other' } };
        await call(second, newKey('drawn_other'), 'POST', '/v1/webhook_endpoints', register);
        await createPayment(second, newKey('drawn_quiet'));
        const authorized = before.payments[0] as Body;
        const capture = `/v1/payments/${authorized.id}/capture`;
        const captured = await call(second, key, 'POST', capture, { body: {} });
        expect(captured.status).toBe(200);
        before.payments[0] = captured.body;
        const after = await makeOn(second, key, 'second');
        const made = [before, after];
        // The fleet's first instance draws on beside the second: ids the second took are drawn again.
        if (manifest.sharing === 'a fleet') made.push(await makeOn(first, key, 'third'));
        const paymentsMade = made.flatMap((each) => each.payments);
        const ids = paymentsMade.map((payment) => payment.id);
        expectDistinct(ids);
        expect((await paymentIds(second, key)).sort()).toEqual([...ids].sort());
        // Each payment answers as it was made: none was overwritten by a later one.
        for (const payment of paymentsMade) {
          const read = await call(second, key, 'GET', `/v1/payments/${payment.id}`);
          expect(read.body).toEqual(payment);
        }
        const endpoints = made.map((each) => each.endpoint);
        expectDistinct(endpoints.map((endpoint) => endpoint.id));
        expectDistinct(endpoints.map((endpoint) => endpoint.secret));
        const listed = await call(second, key, 'GET', '/v1/webhook_endpoints');
        expect(listed.body.data.map((endpoint: Body) => endpoint.id).sort()).toEqual(
          endpoints.map((endpoint) => endpoint.id).sort(),
        );
        // Two events a round (authorized, succeeded) and the capture's, each its own id: none
        // sent under another's.
        expect(await eventIds(second, key)).toHaveLength(2 * made.length + 1);
      } finally {
        for (const sandbox of opened) await sandbox.close();
      }
    });
  });
}
