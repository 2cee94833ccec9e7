// Property-based tests: random operation sequences keep the lifecycle's invariants, and random malformed requests never get a 5xx.
import type { Payment, PaymentServiceError } from '@payment-service/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTarget } from '../harness/use-target.js';

/** How many random cases each property runs; `PROPERTY_RUNS` raises it for a longer soak. */
const runs = Number(process.env.PROPERTY_RUNS ?? 60);

const LEGAL_TRANSITIONS: Record<string, string[]> = {
  PENDING: ['SUCCEEDED', 'FAILED', 'AUTHORIZED'],
  AUTHORIZED: ['SUCCEEDED', 'CANCELED'],
  SUCCEEDED: ['REFUNDED'],
  FAILED: [],
  CANCELED: [],
  REFUNDED: [],
};

const TOKENS = [
  'tok_test_success',
  'tok_test_declined',
  'tok_test_insufficient_funds',
  'tok_test_expired_card',
  'tok_test_processing_error',
  'tok_test_pending',
  'tok_test_pending_declined',
];

type Action =
  | { kind: 'create'; token: string; capture: boolean; amount: number }
  | { kind: 'capture' | 'refund'; pick: number; amount: number | undefined }
  | { kind: 'cancel'; pick: number }
  | { kind: 'advance'; seconds: number };

const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    token: fc.constantFrom(...TOKENS),
    capture: fc.boolean(),
    amount: fc.integer({ min: 1, max: 50_000 }),
  }),
  fc.record({
    kind: fc.constantFrom('capture' as const, 'refund' as const),
    pick: fc.nat(),
    amount: fc.option(fc.integer({ min: 1, max: 60_000 }), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 0, max: 20 }) }),
);

/** What the state machine allows for an action on a payment last seen as `before`. */
function expectedOutcome(action: Action, before: Payment): 'ok' | 400 | 409 | 'unknown' {
  // A PENDING payment may settle on the real clock between our last look and the action.
  if (before.status === 'PENDING') return 'unknown';
  const amount = 'amount' in action ? action.amount : undefined;
  if (action.kind === 'cancel') return before.status === 'AUTHORIZED' ? 'ok' : 409;
  if (action.kind === 'capture') {
    if (before.status !== 'AUTHORIZED') return 409;
    return amount === undefined || amount <= before.amount ? 'ok' : 400;
  }
  if (action.kind === 'refund') {
    if (before.status !== 'SUCCEEDED') return 409;
    const remaining = before.amount_captured - before.amount_refunded;
    return amount === undefined || amount <= remaining ? 'ok' : 400;
  }
  return 'unknown';
}

function expectInvariants(payment: Payment) {
  expect(payment.amount_refunded).toBeLessThanOrEqual(payment.amount_captured);
  expect(payment.amount_captured).toBeLessThanOrEqual(payment.amount);
  if (payment.status === 'REFUNDED') expect(payment.amount_refunded).toBe(payment.amount_captured);
  if (payment.status === 'FAILED') expect(payment.failure_code).not.toBeNull();
  else expect(payment.failure_code).toBeNull();
}

describe('properties (in-process)', () => {
  const ctx = useTarget('in-process');

  it('random operation sequences make only legal transitions and keep the amounts consistent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(actionArbitrary, { minLength: 1, maxLength: 25 }),
        async (actions) => {
          const apiKey = ctx.newApiKey();
          const client = ctx.client(apiKey);
          const known = new Map<string, Payment>();
          const created: string[] = [];

          for (const action of actions) {
            if (action.kind === 'create') {
              const payment = await client.payments.create({
                amount: action.amount,
                currency: 'KZT',
                capture: action.capture,
                payment_method: { type: 'token', token: action.token },
              });
              created.push(payment.id);
              known.set(payment.id, payment);
            } else if (action.kind === 'advance') {
              await ctx.controls(apiKey).advanceClock(action.seconds);
            } else if (created.length > 0) {
              const id = created[action.pick % created.length] as string;
              const before = known.get(id) as Payment;
              const attempt =
                action.kind === 'capture'
                  ? client.payments.capture(id, action.amount ? { amount: action.amount } : {})
                  : action.kind === 'cancel'
                    ? client.payments.cancel(id)
                    : client.refunds.create(id, action.amount ? { amount: action.amount } : {});
              const error = (await attempt.then(
                () => undefined,
                (caught: PaymentServiceError) => caught,
              )) as PaymentServiceError | undefined;
              const expected = expectedOutcome(action, before);
              if (expected !== 'unknown') expect(error?.status ?? 'ok').toBe(expected);
              if (error) {
                expect([400, 409]).toContain(error.status);
                if (error.status === 409) expect(error.code).toBe('invalid_state');
              }
            }
            for await (const payment of client.payments.listAll({ limit: 100 })) {
              const previous = known.get(payment.id);
              if (previous && previous.status !== payment.status) {
                expect(LEGAL_TRANSITIONS[previous.status]).toContain(payment.status);
              }
              expect(payment.amount).toBe(previous?.amount);
              expectInvariants(payment);
              known.set(payment.id, payment);
            }
          }

          const listed: string[] = [];
          for await (const payment of client.payments.listAll({ limit: 3 }))
            listed.push(payment.id);
          expect([...listed].sort()).toEqual([...created].sort());
          expect(new Set(listed).size).toBe(listed.length);
          expect((await ctx.client().payments.list()).data).toEqual([]);
        },
      ),
      { numRuns: runs },
    );
  });

  const printable = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);
  const pathArbitrary = fc.oneof(
    fc.constantFrom(
      '/v1/payments',
      '/v1/payments/{id}',
      '/v1/payments/{id}/capture',
      '/v1/payments/{id}/cancel',
      '/v1/payments/{id}/refunds',
      '/_sandbox/faults',
      '/_sandbox/clock/advance',
    ),
    printable.map((text) => `/v1/${encodeURIComponent(text)}`),
    printable.map((text) => `/v1/payments/${encodeURIComponent(text)}`),
    printable.map(
      (text) =>
        `/v1/payments?limit=${encodeURIComponent(text)}&starting_after=${encodeURIComponent(text)}`,
    ),
  );
  const bodyArbitrary = fc.oneof(
    fc.constant(undefined),
    fc.json(),
    printable,
    fc
      .record(
        {
          amount: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
          currency: fc.oneof(fc.constantFrom('KZT', 'RUB', 'kzt', ''), fc.string()),
          capture: fc.oneof(fc.boolean(), fc.string()),
          description: fc.oneof(fc.string(), fc.integer()),
          payment_method: fc.oneof(
            fc.record({
              type: fc.constantFrom('token', 'card'),
              token: fc.oneof(fc.constantFrom(...TOKENS), fc.string()),
            }),
            fc.anything(),
          ),
          seconds: fc.oneof(fc.integer(), fc.string()),
          fail_next: fc.anything(),
        },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value)),
  );
  const headerArbitrary = fc.record(
    {
      'content-type': fc.oneof(
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'application/problem+json',
        ),
        printable,
      ),
      authorization: fc.oneof(
        fc.constantFrom(
          'Bearer sk_live_abcdefghijkl',
          'Bearer',
          'bearer sk_test_abcdefghijkl',
          'Token x',
        ),
        printable,
      ),
      'idempotency-key': printable,
    },
    { requiredKeys: [] },
  );

  it('random malformed paths, bodies and headers never get a 5xx', async () => {
    const payment = await ctx.client().payments.create({
      amount: 100,
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_success' },
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        pathArbitrary,
        bodyArbitrary,
        headerArbitrary,
        fc.boolean(),
        async (method, path, body, headers, withKey) => {
          const hasBody = body !== undefined && method !== 'GET';
          const response = await ctx.send(path.replace('{id}', payment.id), {
            method,
            headers,
            apiKey: withKey && !headers.authorization ? ctx.newApiKey() : null,
            ...(hasBody ? { body } : {}),
          });
          expect(
            response.status,
            `${method} ${path} → ${response.text.slice(0, 200)}`,
          ).toBeLessThan(500);
          expect(response.headers.get('request-id')).toMatch(/^req_/);
          if (response.status >= 400) {
            expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          }
        },
      ),
      { numRuns: runs * 5 },
    );
  });
});
