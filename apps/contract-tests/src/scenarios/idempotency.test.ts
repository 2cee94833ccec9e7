// Idempotency-Key through the SDK: the `idempotencyKey` option gives the same payment, and a key reused on another request is an IdempotencyError on every method that takes one; keys are scoped per API key. Replays, 422, 409 and expiry on raw HTTP are @payment-service/contract's checks, run in contract-check.test.ts; the SDK's retries reusing the key are in sdk-resilience.test.ts.
import { IdempotencyError } from '@payment-service/sdk';
import { describe, expect, it } from 'vitest';
import { targetNames } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

const body = {
  amount: 4_200,
  currency: 'KZT',
  payment_method: { type: 'token' as const, token: 'tok_test_success' },
};

describe.each(targetNames())('idempotency through the SDK (%s)', (name) => {
  const ctx = useTarget(name);

  it('gives the SDK the same payment for the same idempotencyKey', async () => {
    const client = ctx.client();
    const idempotencyKey = crypto.randomUUID();
    const first = await client.payments.create(body, { idempotencyKey });
    const again = await client.payments.create(body, { idempotencyKey });
    expect(again).toEqual(first);
  });

  it('scopes keys to the API key', async () => {
    const headers = { 'idempotency-key': 'shared-across-accounts' };
    const mine = await ctx.send('/v1/payments', { apiKey: ctx.newApiKey(), body, headers });
    const theirs = await ctx.send('/v1/payments', { apiKey: ctx.newApiKey(), body, headers });
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.json.id).not.toBe(mine.json.id);
  });

  it.each(['capture', 'cancel', 'refund'] as const)(
    'throws an IdempotencyError (422 idempotency_key_reused) for a key reused on %s',
    async (action) => {
      const client = ctx.client();
      const authorized = await client.payments.create({ ...body, capture: false });
      const idempotencyKey = crypto.randomUUID();
      await client.payments.create({ ...body, amount: 1 }, { idempotencyKey });
      const options = { idempotencyKey };
      const attempt =
        action === 'capture'
          ? client.payments.capture(authorized.id, {}, options)
          : action === 'cancel'
            ? client.payments.cancel(authorized.id, options)
            : client.refunds.create(authorized.id, {}, options);
      const error = await attempt.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(IdempotencyError);
      expect(error).toMatchObject({ status: 422, code: 'idempotency_key_reused', attempts: 1 });
    },
  );
});
