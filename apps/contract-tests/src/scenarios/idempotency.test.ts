// Idempotency-Key through the SDK: the same payment for the same idempotencyKey, reuse as an IdempotencyError, keys scoped per API key, 50 at once (replays, 422, 409 and expiry on raw HTTP are @payment-service/contract's checks).
import { IdempotencyError } from '@payment-service/sdk';
import { describe, expect, it } from 'vitest';
import { targetNames } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

const body = {
  amount: 4_200,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_success' },
};

describe.each(targetNames())('idempotency (%s)', (name) => {
  const ctx = useTarget(name);

  it('gives the SDK the same payment for the same idempotencyKey', async () => {
    const client = ctx.client();
    const idempotencyKey = crypto.randomUUID();
    const request = {
      ...body,
      payment_method: { type: 'token' as const, token: 'tok_test_success' },
    };
    const first = await client.payments.create(request, { idempotencyKey });
    const again = await client.payments.create(request, { idempotencyKey });
    expect(again).toEqual(first);
  });

  it('scopes keys to the API key', async () => {
    const headers = { 'idempotency-key': 'shared-across-accounts' };
    const mine = await ctx.send('/v1/payments', { apiKey: ctx.newApiKey(), body, headers });
    const theirs = await ctx.send('/v1/payments', { apiKey: ctx.newApiKey(), body, headers });
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.json.id).not.toBe(mine.json.id);
  });

  it('surfaces reuse as an IdempotencyError in the SDK', async () => {
    const client = ctx.client();
    const idempotencyKey = crypto.randomUUID();
    const payment = await client.payments.create(
      { ...body, payment_method: { type: 'token', token: 'tok_test_success' } },
      { idempotencyKey },
    );
    const error = await client.refunds
      .create(payment.id, {}, { idempotencyKey })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(IdempotencyError);
    expect(error.status).toBe(422);
  });

  it.each([
    ['capture', '/capture'],
    ['cancel', '/cancel'],
    ['refund', '/refunds'],
  ])('answers 422 for a key reused on %s', async (_action, suffix) => {
    const apiKey = ctx.newApiKey();
    const authorized = await ctx.send('/v1/payments', {
      apiKey,
      body: { ...body, capture: false },
    });
    const headers = { 'idempotency-key': crypto.randomUUID() };
    await ctx.send('/v1/payments', { apiKey, body: { ...body, amount: 1 }, headers });
    const reused = await ctx.send(`/v1/payments/${authorized.json.id}${suffix}`, {
      apiKey,
      method: 'POST',
      headers,
    });
    expect(reused.status).toBe(422);
  });

  it('creates exactly one payment from 50 concurrent requests with one key', async () => {
    const apiKey = ctx.newApiKey();
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => ctx.send('/v1/payments', { apiKey, body, headers })),
    );
    const statuses = new Set(responses.map((response) => response.status));
    expect([...statuses].every((status) => status === 201 || status === 409)).toBe(true);
    const created = responses.filter((response) => response.status === 201);
    expect(new Set(created.map((response) => response.json.id)).size).toBe(1);
    for (const conflict of responses.filter((response) => response.status === 409)) {
      expect(conflict.json.code).toBe('idempotency_key_in_use');
    }
    expect((await ctx.client(apiKey).payments.list()).data).toHaveLength(1);
  });
});
