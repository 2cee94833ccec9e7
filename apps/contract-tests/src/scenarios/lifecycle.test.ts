// The payment lifecycle through the SDK: one smoke path, and what the SDK adds, each refusal as its typed error (InvalidRequestError, NotFoundError, ConflictError) with the problem's details. The transitions themselves (capture, cancel, refunds, settlement, every forbidden action) are @payment-service/contract's checks, run in contract-check.test.ts. The sandbox clock's and reset's scope per key are in sandbox-controls.test.ts.
import { forbiddenActions } from '@payment-service/contract/toolkit';
import { ConflictError, InvalidRequestError, NotFoundError } from '@payment-service/sdk';
import { describe, expect, it } from 'vitest';
import { targetNames } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

const params = (token: string, capture = true, amount = 10_000) => ({
  amount,
  currency: 'KZT',
  capture,
  payment_method: { type: 'token' as const, token },
});

describe.each(targetNames())('payment lifecycle through the SDK (%s)', (name) => {
  const ctx = useTarget(name);

  it('create → capture → refund part → refund the rest (the smoke path)', async () => {
    const client = ctx.client();
    const authorized = await client.payments.create(params('tok_test_success', false));
    const captured = await client.payments.capture(authorized.id);
    expect(captured).toMatchObject({ id: authorized.id, status: 'SUCCEEDED' });
    const part = await client.refunds.create(captured.id, { amount: 2_500 });
    expect(part).toMatchObject({ object: 'refund', payment_id: captured.id, amount: 2_500 });
    const rest = await client.refunds.create(captured.id);
    expect(rest.amount).toBe(7_500);
    expect((await client.payments.retrieve(captured.id)).status).toBe('REFUNDED');
  });

  it('throws an InvalidRequestError naming the param for a capture over the authorization', async () => {
    const client = ctx.client();
    const authorized = await client.payments.create(params('tok_test_success', false, 1_000));
    const error = await client.payments
      .capture(authorized.id, { amount: 1_001 })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', param: 'amount' });
  });

  it("throws a NotFoundError for another key's payment, on retrieve and on an action", async () => {
    const payment = await ctx.client().payments.create(params('tok_test_success'));
    const theirs = ctx.client();
    for (const attempt of [
      theirs.payments.retrieve(payment.id),
      theirs.payments.capture(payment.id),
    ]) {
      const error = await attempt.catch((caught) => caught);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'not_found' });
      expect(error.requestId).toMatch(/^req_/);
    }
  });

  // One forbidden transition per method: the SDK's mapping, not the state machine (the contract checks all 15).
  it.each(forbiddenActions.filter(([, status]) => status !== 'FAILED' && status !== 'PENDING'))(
    'throws a ConflictError (409 invalid_state, the status in its detail) to %s a %s payment',
    async (action, status, token, capture) => {
      const client = ctx.client();
      const payment = await client.payments.create(params(token, capture));
      const attempt =
        action === 'capture'
          ? client.payments.capture(payment.id)
          : action === 'cancel'
            ? client.payments.cancel(payment.id)
            : client.refunds.create(payment.id);
      const error = await attempt.catch((caught) => caught);
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ status: 409, code: 'invalid_state', attempts: 1 });
      expect(error.problem.detail).toContain(status);
    },
  );
});
