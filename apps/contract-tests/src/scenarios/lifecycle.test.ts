// The payment lifecycle through the SDK: capture, cancel, refunds, settlement on the sandbox clock, and every illegal transition.
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

describe.each(targetNames())('payment lifecycle (%s)', (name) => {
  const ctx = useTarget(name);

  it('create → capture → refund part → refund the rest', async () => {
    const client = ctx.client();
    const authorized = await client.payments.create(params('tok_test_success', false));
    expect(authorized.status).toBe('AUTHORIZED');

    const captured = await client.payments.capture(authorized.id);
    expect(captured).toMatchObject({
      status: 'SUCCEEDED',
      amount_captured: 10_000,
      amount_refunded: 0,
    });

    const firstRefund = await client.refunds.create(captured.id, { amount: 2_500 });
    expect(firstRefund).toMatchObject({
      object: 'refund',
      amount: 2_500,
      payment_id: captured.id,
      currency: 'KZT',
    });
    expect(firstRefund.id).toMatch(/^ref_/);
    const partlyRefunded = await client.payments.retrieve(captured.id);
    expect(partlyRefunded).toMatchObject({ status: 'SUCCEEDED', amount_refunded: 2_500 });

    const rest = await client.refunds.create(captured.id);
    expect(rest.amount).toBe(7_500);
    const refunded = await client.payments.retrieve(captured.id);
    expect(refunded).toMatchObject({ status: 'REFUNDED', amount_refunded: 10_000 });
  });

  it('captures part of an authorization and refunds only what was captured', async () => {
    const client = ctx.client();
    const authorized = await client.payments.create(params('tok_test_success', false, 8_000));
    const captured = await client.payments.capture(authorized.id, { amount: 5_000 });
    expect(captured).toMatchObject({ status: 'SUCCEEDED', amount: 8_000, amount_captured: 5_000 });
    await expect(client.refunds.create(captured.id, { amount: 5_001 })).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    const refund = await client.refunds.create(captured.id);
    expect(refund.amount).toBe(5_000);
    expect((await client.payments.retrieve(captured.id)).status).toBe('REFUNDED');
  });

  it('rejects a capture larger than the authorization', async () => {
    const client = ctx.client();
    const authorized = await client.payments.create(params('tok_test_success', false, 1_000));
    const error = await client.payments
      .capture(authorized.id, { amount: 1_001 })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.param).toBe('amount');
    expect((await client.payments.retrieve(authorized.id)).status).toBe('AUTHORIZED');
  });

  it('authorize → cancel', async () => {
    const client = ctx.client();
    const authorized = await client.payments.create(params('tok_test_success', false));
    const canceled = await client.payments.cancel(authorized.id);
    expect(canceled).toMatchObject({ id: authorized.id, status: 'CANCELED', amount_captured: 0 });
  });

  it('retrieves a payment exactly as created', async () => {
    const client = ctx.client();
    const created = await client.payments.create(params('tok_test_declined'));
    expect(await client.payments.retrieve(created.id)).toEqual(created);
  });

  it('keeps each key to its own payments', async () => {
    const mine = ctx.client();
    const theirs = ctx.client();
    const payment = await mine.payments.create(params('tok_test_success'));
    await expect(theirs.payments.retrieve(payment.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(theirs.payments.capture(payment.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await theirs.payments.list()).data).toEqual([]);
  });

  it.each(forbiddenActions)(
    'refuses to %s a %s payment with 409 invalid_state',
    async (action, status, token, capture) => {
      const client = ctx.client();
      const payment = await client.payments.create(params(token, capture));
      expect(payment.status).toBe(status);
      const attempt =
        action === 'capture'
          ? client.payments.capture(payment.id)
          : action === 'cancel'
            ? client.payments.cancel(payment.id)
            : client.refunds.create(payment.id);
      const error = await attempt.catch((caught) => caught);
      expect(error).toBeInstanceOf(ConflictError);
      expect(error.status).toBe(409);
      expect(error.code).toBe('invalid_state');
      expect(error.problem.detail).toContain(status);
      expect((await client.payments.retrieve(payment.id)).status).toBe(status);
    },
  );

  it('refuses to act on CANCELED and REFUNDED payments', async () => {
    const client = ctx.client();
    const canceled = await client.payments.cancel(
      (await client.payments.create(params('tok_test_success', false))).id,
    );
    for (const attempt of [
      client.payments.capture(canceled.id),
      client.payments.cancel(canceled.id),
      client.refunds.create(canceled.id),
    ]) {
      await expect(attempt).rejects.toMatchObject({ status: 409, code: 'invalid_state' });
    }
    const succeeded = await client.payments.create(params('tok_test_success'));
    await client.refunds.create(succeeded.id);
    for (const attempt of [
      client.payments.capture(succeeded.id),
      client.payments.cancel(succeeded.id),
      client.refunds.create(succeeded.id),
    ]) {
      await expect(attempt).rejects.toMatchObject({ status: 409, code: 'invalid_state' });
    }
  });

  describe('on the sandbox clock', () => {
    it.each([
      ['tok_test_pending', true, 'SUCCEEDED'],
      ['tok_test_pending', false, 'AUTHORIZED'],
      ['tok_test_pending_declined', true, 'FAILED'],
    ] as const)(
      '%s (capture %s) settles to %s when the clock moves on',
      async (token, capture, settled) => {
        const apiKey = ctx.newApiKey();
        const client = ctx.client(apiKey);
        const pending = await client.payments.create(params(token, capture));
        expect(pending.status).toBe('PENDING');
        expect((await client.payments.retrieve(pending.id)).status).toBe('PENDING');
        const clock = await ctx.controls(apiKey).advanceClock(3600);
        expect(clock.settled_payments).toBe(1);
        const after = await client.payments.retrieve(pending.id);
        expect(after.status).toBe(settled);
        if (settled === 'FAILED') expect(after.failure_code).toBe('card_declined');
      },
    );

    it("moves only the calling key's clock", async () => {
      const mine = ctx.newApiKey();
      const theirs = ctx.newApiKey();
      const pending = await ctx.client(theirs).payments.create(params('tok_test_pending'));
      await ctx.controls(mine).advanceClock(3600);
      expect((await ctx.client(theirs).payments.retrieve(pending.id)).status).toBe('PENDING');
      expect((await ctx.controls(theirs).getClock()).offset_seconds).toBe(0);
    });

    it('reset deletes the key’s payments', async () => {
      const apiKey = ctx.newApiKey();
      const client = ctx.client(apiKey);
      const payment = await client.payments.create(params('tok_test_success'));
      const reset = await ctx.controls(apiKey).reset();
      expect(reset.deleted_payments).toBe(1);
      await expect(client.payments.retrieve(payment.id)).rejects.toBeInstanceOf(NotFoundError);
    });
  });
});
