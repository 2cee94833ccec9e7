// Idempotency-Key on every POST: replays, reuse with another request, requests in flight, and expiry on the sandbox clock.
import { IdempotencyError } from '@payment-service/sdk';
import { describe, expect, it } from 'vitest';
import { isLive, targetNames } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

const body = {
  amount: 4_200,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_success' },
};

describe.each(targetNames())('idempotency (%s)', (name) => {
  const ctx = useTarget(name);

  it('replays the first response for a repeated key, marked Idempotent-Replayed', async () => {
    const apiKey = ctx.newApiKey();
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await ctx.send('/v1/payments', { apiKey, body, headers });
    const second = await ctx.send('/v1/payments', { apiKey, body, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(first.status);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    expect(second.headers.get('request-id')).not.toBe(first.headers.get('request-id'));
    const page = await ctx.client(apiKey).payments.list();
    expect(page.data).toHaveLength(1);
  });

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

  it.skipIf(isLive)('scopes keys to the API key', async () => {
    const headers = { 'idempotency-key': 'shared-across-accounts' };
    const mine = await ctx.send('/v1/payments', { apiKey: ctx.newApiKey(), body, headers });
    const theirs = await ctx.send('/v1/payments', { apiKey: ctx.newApiKey(), body, headers });
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.json.id).not.toBe(mine.json.id);
  });

  it.each([
    ['another body', '/v1/payments', { ...body, amount: 4_201 }],
    ['another path', '/v1/payments/{id}/refunds', {}],
  ])(
    'answers 422 idempotency_key_reused for the same key with %s',
    async (_what, path, nextBody) => {
      const apiKey = ctx.newApiKey();
      const headers = { 'idempotency-key': crypto.randomUUID() };
      const first = await ctx.send('/v1/payments', { apiKey, body, headers });
      const reused = await ctx.send(path.replace('{id}', first.json.id), {
        apiKey,
        body: nextBody,
        headers,
      });
      expect(reused.status).toBe(422);
      expect(reused.json.code).toBe('idempotency_key_reused');
    },
  );

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

  it('does not store a validation failure, so the fixed request can reuse the key', async () => {
    const apiKey = ctx.newApiKey();
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const invalid = await ctx.send('/v1/payments', {
      apiKey,
      body: { ...body, amount: -1 },
      headers,
    });
    expect(invalid.status).toBe(400);
    const fixed = await ctx.send('/v1/payments', { apiKey, body, headers });
    expect(fixed.status).toBe(201);
  });

  it.skipIf(isLive)(
    'creates exactly one payment from 50 concurrent requests with one key',
    async () => {
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
    },
  );

  it.skipIf(isLive)(
    'answers 409 idempotency_key_in_use while the first request is in flight',
    async () => {
      const apiKey = ctx.newApiKey();
      await ctx.controls(apiKey).setFaults({ latency_ms: 300 });
      const headers = { 'idempotency-key': crypto.randomUUID() };
      // Sent together: whichever arrives first holds the key for the 300 ms of latency.
      const answers = await Promise.all([
        ctx.send('/v1/payments', { apiKey, body, headers }),
        ctx.send('/v1/payments', { apiKey, body, headers }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect(answers.find((answer) => answer.status === 409)?.json.code).toBe(
        'idempotency_key_in_use',
      );
    },
  );

  it.skipIf(isLive)('forgets a key after 24 hours of sandbox time', async () => {
    const apiKey = ctx.newApiKey();
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await ctx.send('/v1/payments', { apiKey, body, headers });
    await ctx.controls(apiKey).advanceClock(23 * 3600);
    const stillStored = await ctx.send('/v1/payments', { apiKey, body, headers });
    expect(stillStored.json.id).toBe(first.json.id);
    await ctx.controls(apiKey).advanceClock(3600 + 1);
    const afterExpiry = await ctx.send('/v1/payments', {
      apiKey,
      body: { ...body, amount: 1 },
      headers,
    });
    expect(afterExpiry.status).toBe(201);
    expect(afterExpiry.json.id).not.toBe(first.json.id);
  });
});
