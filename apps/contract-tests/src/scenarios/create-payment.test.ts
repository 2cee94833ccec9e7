// Creating a payment through the SDK: the documented facts, the test tokens and the SDK's typed errors.
import { AuthenticationError, PaymentServiceError } from '@payment-service/sdk';
import { describe, expect, it } from 'vitest';
import { targetNames } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

const CREATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe.each(targetNames())('create a payment (%s)', (name) => {
  const ctx = useTarget(name);

  it('captures with tok_test_success: SUCCEEDED, pay_ id, amount and currency as sent (documented §2.1, §3)', async () => {
    const payment = await ctx.client().payments.create({
      amount: 150_000,
      currency: 'KZT',
      capture: true,
      description: 'Order #1001',
      payment_method: { type: 'token', token: 'tok_test_success' },
    });
    expect(payment.status).toBe('SUCCEEDED');
    expect(payment.object).toBe('payment');
    expect(payment.id).toMatch(/^pay_[A-Za-z0-9]{20,}$/);
    expect(payment.amount).toBe(150_000);
    expect(payment.currency).toBe('KZT');
    expect(payment.created_at).toMatch(CREATED_AT);
    expect(Math.abs(Date.parse(payment.created_at) - Date.now())).toBeLessThan(60_000);
    expect(payment.description).toBe('Order #1001');
    expect(payment.amount_captured).toBe(150_000);
  });

  it('authorizes without capturing when capture is false', async () => {
    const payment = await ctx.client().payments.create({
      amount: 999,
      currency: 'RUB',
      capture: false,
      payment_method: { type: 'token', token: 'tok_test_success' },
    });
    expect(payment.status).toBe('AUTHORIZED');
    expect(payment.amount_captured).toBe(0);
    expect(payment.description).toBeNull();
  });

  it.each([
    ['tok_test_declined', 'card_declined'],
    ['tok_test_insufficient_funds', 'insufficient_funds'],
    ['tok_test_expired_card', 'expired_card'],
    ['tok_test_processing_error', 'processing_error'],
  ])('returns a FAILED payment, not an error, for %s', async (token, failureCode) => {
    const payment = await ctx.client().payments.create({
      amount: 500,
      currency: 'KZT',
      payment_method: { type: 'token', token },
    });
    expect(payment.status).toBe('FAILED');
    expect(payment.failure_code).toBe(failureCode);
    expect(payment.failure_message).toEqual(expect.any(String));
  });

  it('gives every payment its own id', async () => {
    const client = ctx.client();
    const params = {
      amount: 100,
      currency: 'KZT',
      payment_method: { type: 'token' as const, token: 'tok_test_success' },
    };
    const payments = await Promise.all(
      Array.from({ length: 20 }, () => client.payments.create(params)),
    );
    expect(new Set(payments.map((payment) => payment.id)).size).toBe(20);
  });

  it('throws a typed error carrying status, code, param and request id for a bad request', async () => {
    const error = await ctx
      .client()
      .payments.create({
        amount: 0,
        currency: 'KZT',
        payment_method: { type: 'token', token: 'tok_test_success' },
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentServiceError);
    const problem = error as PaymentServiceError;
    expect(problem.status).toBe(400);
    expect(problem.code).toBe('invalid_request');
    expect(problem.param).toBe('amount');
    expect(problem.requestId).toMatch(/^req_/);
  });

  it('throws an AuthenticationError for a live key, without the key in the message', async () => {
    const liveKey = 'sk_live_abcdefghijklmnop1234';
    const error = await ctx
      .client(liveKey)
      .payments.create({
        amount: 100,
        currency: 'KZT',
        payment_method: { type: 'token', token: 'tok_test_success' },
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('live_key_in_sandbox');
    expect(String(error)).not.toContain(liveKey);
    expect(JSON.stringify((error as AuthenticationError).problem)).not.toContain(liveKey);
  });
});
