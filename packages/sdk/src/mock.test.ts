// Runs the SDK against @payment-service/mock in process, through the mock's own fetch.
import { createMockServer, type MockServer } from '@payment-service/mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from './client.js';
import {
  AuthenticationError,
  ConflictError,
  IdempotencyError,
  InvalidRequestError,
  NotFoundError,
} from './errors.js';
import type { CreatePaymentParams } from './types.js';

const success: CreatePaymentParams = {
  amount: 150000,
  currency: 'KZT',
  capture: true,
  description: 'Order 1042',
  payment_method: { type: 'token', token: 'tok_test_success' },
};

let mock: MockServer;
let keyCounter = 0;

/** A client with its own sandbox key, so tests see only their own payments. */
function newClient(apiKey = `sk_test_sdkmock${++keyCounter}${Date.now()}`) {
  return createClient({ apiKey, baseUrl: 'http://localhost:4010', fetch: mock.fetch });
}

beforeEach(() => {
  mock = createMockServer();
});

afterEach(() => {
  mock.close();
});

describe('SDK against the in-process mock', () => {
  it('creates a payment with status SUCCEEDED and retrieves it', async () => {
    const client = newClient();
    const payment = await client.payments.create(success);
    expect(payment).toMatchObject({
      object: 'payment',
      status: 'SUCCEEDED',
      amount: 150000,
      currency: 'KZT',
      capture: true,
      description: 'Order 1042',
    });
    expect(payment.id).toMatch(/^pay_.+$/);
    expect(payment.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    await expect(client.payments.retrieve(payment.id)).resolves.toEqual(payment);
  });

  it('replays a create sent again with the same Idempotency-Key', async () => {
    const client = newClient();
    const first = await client.payments.create(success, { idempotencyKey: 'order-1042' });
    const again = await client.payments.create(success, { idempotencyKey: 'order-1042' });
    expect(again.id).toBe(first.id);
    const reused = await client.payments
      .create({ ...success, amount: 1 }, { idempotencyKey: 'order-1042' })
      .catch((error) => error);
    expect(reused).toBeInstanceOf(IdempotencyError);
    expect(reused.status).toBe(422);
    expect(reused.code).toBe('idempotency_key_reused');
  });

  it('returns a decline as a FAILED payment', async () => {
    const client = newClient();
    const payment = await client.payments.create({
      ...success,
      payment_method: { type: 'token', token: 'tok_test_declined' },
    });
    expect(payment.status).toBe('FAILED');
    expect(payment.failure_code).toBe('card_declined');
  });

  it('authorizes, captures part, refunds, and refuses an invalid transition', async () => {
    const client = newClient();
    const authorized = await client.payments.create({ ...success, capture: false });
    expect(authorized.status).toBe('AUTHORIZED');
    const captured = await client.payments.capture(authorized.id, { amount: 100000 });
    expect(captured.status).toBe('SUCCEEDED');
    expect(captured.amount_captured).toBe(100000);
    const refund = await client.refunds.create(captured.id, { amount: 40000 });
    expect(refund).toMatchObject({ object: 'refund', payment_id: captured.id, amount: 40000 });
    expect(refund.id).toMatch(/^ref_.+$/);
    const conflict = await client.payments.cancel(captured.id).catch((error) => error);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict.code).toBe('invalid_state');
    expect(conflict.requestId).toMatch(/^req_/);
  });

  it('cancels an authorized payment', async () => {
    const client = newClient();
    const authorized = await client.payments.create({ ...success, capture: false });
    await expect(client.payments.cancel(authorized.id)).resolves.toMatchObject({
      status: 'CANCELED',
    });
  });

  it('lists every payment across pages with listAll', async () => {
    const client = newClient();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await client.payments.create(success)).id);
    const seen: string[] = [];
    for await (const payment of client.payments.listAll({ limit: 2 })) seen.push(payment.id);
    expect(seen.sort()).toEqual([...created].sort());
    const firstPage = await client.payments.list({ limit: 2 });
    expect(firstPage).toMatchObject({ object: 'list', has_more: true });
    expect(firstPage.data).toHaveLength(2);
  });

  it('maps the mock’s problems to the SDK’s error classes', async () => {
    const client = newClient();
    const invalid = await client.payments.create({ ...success, amount: 0 }).catch((error) => error);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid.code).toBe('invalid_request');
    expect(invalid.param).toBe('amount');
    expect(invalid.message).toMatch(
      /^400 invalid_request: .+\(param: amount\) \[request req_\w+\]$/,
    );

    await expect(client.payments.retrieve('pay_doesnotexist')).rejects.toBeInstanceOf(
      NotFoundError,
    );

    const live = newClient('sk_live_notforsandbox');
    const refused = await live.payments.create(success).catch((error) => error);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect(refused.code).toBe('live_key_in_sandbox');
    expect(refused.message).not.toContain('notforsandbox');
  });
});
