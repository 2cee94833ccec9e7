// Fault injection at each step: the clock throws on its Nth read during one request.
import { afterAll, describe, expect, it } from 'vitest';
import { type MockServer, mockServerOf } from '../app/mock-server.js';
import { createRuntime } from '../app/runtime.js';
import { STORES } from '../test-support/async-store.js';
import { validCreateBody } from '../test-support/harness.js';

const KEY = 'sk_test_all_or_nothing_01';

/** A manual clock that throws once, on its `failAt`th read after being armed. */
function faultyClock() {
  let now = Date.UTC(2025, 0, 15, 12);
  let reads = 0;
  let failAt = Number.POSITIVE_INFINITY;
  return {
    now() {
      reads++;
      if (reads === failAt) throw new RangeError('injected clock failure');
      return now;
    },
    arm(step: number) {
      failAt = reads + step;
    },
    disarm() {
      failAt = Number.POSITIVE_INFINITY;
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

async function call(
  mock: MockServer,
  method: string,
  path: string,
  body?: unknown,
  idempotencyKey?: string,
) {
  const headers: Record<string, string> = { authorization: `Bearer ${KEY}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const response = await mock.fetch(`http://sandbox.test${path}`, {
    method,
    headers,
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

for (const { name: store, hooks } of STORES) {
  describe(store, () => {
    const statuses: number[] = [];

    describe('all-or-nothing operations under injected failures', () => {
      afterAll(() => {
        // The injected failures did hit the refund at some steps (a 500), and not at others.
        expect(statuses).toContain(500);
        expect(statuses).toContain(201);
      });

      for (const step of Array.from({ length: 12 }, (_, index) => index + 1)) {
        it(`refund with the clock failing at read ${step}: 5xx changes nothing, the retry applies once`, async () => {
          const clock = faultyClock();
          const mock = mockServerOf(
            createRuntime(
              {
                clock,
                webhookUrl: 'http://127.0.0.1:9/x',
                webhookSecret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=',
              },
              hooks,
            ),
          );
          try {
            const created = await call(mock, 'POST', '/v1/payments', validCreateBody);
            const id = String(created.body.id);
            clock.arm(step);
            const first = await call(
              mock,
              'POST',
              `/v1/payments/${id}/refunds`,
              { amount: 400 },
              'r1',
            );
            clock.disarm();
            statuses.push(first.status);
            const between = await call(mock, 'GET', `/v1/payments/${id}`);
            if (first.status >= 500) expect(between.body.amount_refunded).toBe(0);
            else expect(first.status).toBe(201);
            const retry = await call(
              mock,
              'POST',
              `/v1/payments/${id}/refunds`,
              { amount: 400 },
              'r1',
            );
            expect(retry.status).toBe(201);
            const after = await call(mock, 'GET', `/v1/payments/${id}`);
            expect(after.body.amount_refunded).toBe(400);
          } finally {
            mock.close();
          }
        });

        it(`create with the clock failing at read ${step}: no payment without its answer`, async () => {
          const clock = faultyClock();
          const mock = mockServerOf(createRuntime({ clock }, hooks));
          try {
            clock.arm(step);
            const first = await call(mock, 'POST', '/v1/payments', validCreateBody, 'c1');
            clock.disarm();
            const retry = await call(mock, 'POST', '/v1/payments', validCreateBody, 'c1');
            expect(retry.status).toBe(201);
            if (first.status === 201) expect(retry.body.id).toBe(first.body.id);
            const list = await call(mock, 'GET', '/v1/payments');
            expect((list.body.data as unknown[]).length).toBe(1);
          } finally {
            mock.close();
          }
        });
      }
    });
  });
}
