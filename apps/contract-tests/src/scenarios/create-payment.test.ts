// Creating a payment through the SDK: what the SDK adds to the API's answers (a typed payment, a decline resolved not thrown, typed errors with the problem's details, keys kept out of errors). The API's own facts (statuses, fields, tokens, ids) are @payment-service/contract's checks, run in contract-check.test.ts.
import {
  AuthenticationError,
  InvalidRequestError,
  PaymentServiceError,
} from '@payment-service/sdk';
import { describe, expect, it } from 'vitest';
import { targetNames } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

const params = (token: string, amount = 150_000) => ({
  amount,
  currency: 'KZT',
  capture: true,
  payment_method: { type: 'token' as const, token },
});

describe.each(targetNames())('create a payment through the SDK (%s)', (name) => {
  const ctx = useTarget(name);

  it('resolves a captured create as a typed payment (the SDK × mock smoke path)', async () => {
    const payment = await ctx.client().payments.create(params('tok_test_success'));
    expect(payment).toMatchObject({ object: 'payment', status: 'SUCCEEDED', amount: 150_000 });
  });

  it('resolves a decline as a FAILED payment instead of throwing', async () => {
    const payment = await ctx.client().payments.create(params('tok_test_declined', 500));
    expect(payment).toMatchObject({ status: 'FAILED', failure_code: 'card_declined' });
  });

  it('throws an InvalidRequestError carrying status, code, param, request id and the problem', async () => {
    const error = await ctx
      .client()
      .payments.create(params('tok_test_success', 0))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toBeInstanceOf(PaymentServiceError);
    const problem = error as InvalidRequestError;
    expect(problem).toMatchObject({ status: 400, code: 'invalid_request', param: 'amount' });
    expect(problem.requestId).toMatch(/^req_/);
    expect(problem.requestId).toBe(problem.headers.get('request-id'));
    expect(problem.problem).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(problem.attempts).toBe(1);
    expect(problem.message).toContain('amount');
  });

  it('throws an AuthenticationError for a live key, without the key in the message', async () => {
    const liveKey = 'sk_live_abcdefghijklmnop1234';
    const error = await ctx
      .client(liveKey)
      .payments.create(params('tok_test_success', 100))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('live_key_in_sandbox');
    expect(String(error)).not.toContain(liveKey);
    expect(JSON.stringify((error as AuthenticationError).problem)).not.toContain(liveKey);
  });
});
