import { describe, expect, expectTypeOf, it } from 'vitest';
import { createClient } from './client.js';
import { ConflictError, InvalidRequestError } from './errors.js';
import {
  createFetchStub,
  jsonResponse,
  problemResponse,
  type StubAnswer,
} from './test-support/fetch-stub.js';
import type { Refund } from './types.js';

const refund: Refund = {
  id: 'ref_1',
  object: 'refund',
  payment_id: 'pay_1',
  amount: 5000,
  currency: 'KZT',
  status: 'SUCCEEDED',
  created_at: '2025-01-02T03:04:05Z',
};

function setup(answer: StubAnswer = () => jsonResponse(refund, 201)) {
  const stub = createFetchStub(answer);
  const client = createClient({
    apiKey: 'sk_test_refunds',
    baseUrl: 'https://sandbox.test',
    fetch: stub.fetch,
  });
  return { client, requests: stub.requests };
}

describe('refunds.create', () => {
  it('POSTs the optional amount to /v1/payments/{id}/refunds', async () => {
    const { client, requests } = setup();
    const result = await client.refunds.create(
      'pay_1',
      { amount: 5000 },
      { idempotencyKey: 'refund-1' },
    );
    expectTypeOf(result).toEqualTypeOf<Refund>();
    expect(result).toEqual(refund);
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url.href).toBe('https://sandbox.test/v1/payments/pay_1/refunds');
    expect(request?.headers.get('Authorization')).toBe('Bearer sk_test_refunds');
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(request?.headers.get('Idempotency-Key')).toBe('refund-1');
    expect(JSON.parse(request?.body ?? '')).toEqual({ amount: 5000 });
  });

  it('sends no body without params (refund what remains) and generates a key', async () => {
    const { client, requests } = setup();
    await client.refunds.create('pay_1');
    expect(requests[0]?.body).toBeNull();
    expect(requests[0]?.headers.has('Content-Type')).toBe(false);
    expect(requests[0]?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('maps refunding too much and a wrong status', async () => {
    const tooMuch = setup(() =>
      problemResponse(400, 'invalid_request', 'Only 100 remains.', { param: 'amount' }),
    );
    await expect(tooMuch.client.refunds.create('pay_1', { amount: 999 })).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    const wrongState = setup(() => problemResponse(409, 'invalid_state', 'Payment is AUTHORIZED.'));
    await expect(wrongState.client.refunds.create('pay_1')).rejects.toBeInstanceOf(ConflictError);
  });

  it('rejects an empty payment id before sending', async () => {
    const { client, requests } = setup();
    await expect(client.refunds.create('')).rejects.toThrow(TypeError);
    expect(requests).toHaveLength(0);
  });
});
