// Attack 2: retry every change with the same Idempotency-Key after every kind of answer (a
// success, an injected 5xx, a dropped connection, the clock at its limit): it applies once.
import { describe, expect, it } from 'vitest';
import { advanceClockToLimit } from './attacks/floods.js';
import { listedIds } from './expect-helpers.js';
import { type Answer, call, NO_ANSWER, paymentBody } from './http.js';
import { useSandbox } from './test-support/use-sandbox.js';

const fx = useSandbox(['--quiet'], { receiver: 'answer' });

type Fault = { name: string; faults?: Record<string, unknown> };
const FAULTS: Fault[] = [
  { name: 'no fault' },
  { name: 'fail_next 500', faults: { fail_next: { count: 1, status: 500 } } },
  { name: 'fail_next 503', faults: { fail_next: { count: 1, status: 503, retry_after: 1 } } },
  { name: 'drop_after_commit', faults: { drop_after_commit: { count: 1 } } },
  { name: 'latency then drop', faults: { latency_ms: 20, drop_after_commit: { count: 1 } } },
];

/** A fresh key with a webhook endpoint (events are part of every change) and three payments. */
async function setUp(key: string) {
  const { url } = fx.sandbox;
  expect(
    (
      await call(url, {
        path: '/v1/webhook_endpoints',
        key,
        body: { url: fx.receivers.receiver.url },
      })
    ).status,
  ).toBe(201);
  const make = async (capture: boolean, tag: string) => {
    const answer = await call(url, {
      path: '/v1/payments',
      key,
      idempotencyKey: tag,
      body: paymentBody(1000, capture),
    });
    expect(answer.status).toBe(201);
    return String(answer.json?.id);
  };
  return {
    captured: await make(true, 'a'),
    forCapture: await make(false, 'b'),
    forCancel: await make(false, 'c'),
  };
}

/** Sends the same request with the same key: once under `fault`, then twice more without. */
async function sendThrice(
  key: string,
  fault: Fault,
  path: string,
  idempotencyKey: string,
  body: unknown,
) {
  const { url } = fx.sandbox;
  if (fault.faults !== undefined) {
    expect(
      (await call(url, { method: 'PUT', path: '/_sandbox/faults', key, body: fault.faults }))
        .status,
    ).toBe(200);
  }
  const answers: Answer[] = [await call(url, { path, key, idempotencyKey, body })];
  await call(url, { method: 'DELETE', path: '/_sandbox/faults', key });
  answers.push(await call(url, { path, key, idempotencyKey, body }));
  answers.push(await call(url, { path, key, idempotencyKey, body }));
  return answers;
}

/** Statuses an answer may have: success, an injected failure, or a dropped connection. */
function expectOnlyAllowed(answers: Answer[], fault: Fault, success: number): void {
  const injected = (fault.faults?.fail_next as { status?: number } | undefined)?.status;
  for (const answer of answers) {
    expect(
      [success, NO_ANSWER, ...(injected === undefined ? [] : [injected])],
      answer.text.slice(0, 200),
    ).toContain(answer.status);
  }
  // After the fault is cleared, the retries answer the one stored result.
  expect(answers[1]?.status).toBe(success);
  expect(answers[2]?.status).toBe(success);
  expect(answers[2]?.json?.id).toBe(answers[1]?.json?.id);
}

describe('all or nothing: retries with the same Idempotency-Key apply once', () => {
  for (const [index, fault] of FAULTS.entries()) {
    it(`refund, capture, cancel and create under "${fault.name}"`, async () => {
      const key = `sk_test_reliability_once_${index}`;
      const { url } = fx.sandbox;
      const ids = await setUp(key);

      const refunds = await sendThrice(key, fault, `/v1/payments/${ids.captured}/refunds`, 'r', {
        amount: 400,
      });
      expectOnlyAllowed(refunds, fault, 201);
      const captures = await sendThrice(key, fault, `/v1/payments/${ids.forCapture}/capture`, 'k', {
        amount: 600,
      });
      expectOnlyAllowed(captures, fault, 200);
      const cancels = await sendThrice(key, fault, `/v1/payments/${ids.forCancel}/cancel`, 'x', {});
      expectOnlyAllowed(cancels, fault, 200);
      const creates = await sendThrice(key, fault, '/v1/payments', 'n', paymentBody(700));
      expectOnlyAllowed(creates, fault, 201);

      const get = (id: string) => call(url, { path: `/v1/payments/${id}`, key });
      expect((await get(ids.captured)).json?.amount_refunded).toBe(400);
      expect((await get(ids.forCapture)).json?.amount_captured).toBe(600);
      expect((await get(ids.forCancel)).json?.status).toBe('CANCELED');
      const list = await call(url, { path: '/v1/payments?limit=100', key });
      expect(listedIds(list).length).toBe(4);
      expect(fx.sandbox.alive()).toBe(true);
    });
  }

  it('with the clock at its limit, a refund retried after any answer is applied once', async () => {
    const key = 'sk_test_reliability_once_clock';
    const { url } = fx.sandbox;
    const ids = await setUp(key);
    await advanceClockToLimit(url, key, 200);
    const refunds = await sendThrice(
      key,
      FAULTS[0] as Fault,
      `/v1/payments/${ids.captured}/refunds`,
      'r',
      { amount: 400 },
    );
    for (const answer of refunds) expect(answer.status, answer.text.slice(0, 200)).toBe(201);
    expect(
      (await call(url, { path: `/v1/payments/${ids.captured}`, key })).json?.amount_refunded,
    ).toBe(400);
    expect(fx.sandbox.alive()).toBe(true);
  });
});
