import { describe, expect, it } from 'vitest';
import { createHarness } from '../test-support/harness.js';

describe('retrieve and list', () => {
  it('retrieves a payment and 404s an unknown id', async () => {
    const { createPayment, json } = createHarness();
    const payment = await createPayment();
    const found = await json('GET', `/v1/payments/${payment.id}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual(payment);
    const missing = await json('GET', '/v1/payments/pay_doesnotexist');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('lists newest first with stable order in the same millisecond and pages with starting_after', async () => {
    const { createPayment, json } = createHarness();
    const created = [];
    for (let index = 0; index < 25; index++)
      created.push(await createPayment({ amount: index + 1 }));
    const newestFirst = created.map((payment) => payment.id).reverse();

    const first = await json('GET', '/v1/payments');
    expect(first.status).toBe(200);
    expect(first.body.object).toBe('list');
    expect(first.body.data).toHaveLength(10);
    expect(first.body.has_more).toBe(true);

    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const query = cursor ? `?limit=7&starting_after=${cursor}` : '?limit=7';
      const page = await json('GET', `/v1/payments${query}`);
      seen.push(...page.body.data.map((payment: { id: string }) => payment.id));
      if (!page.body.has_more) break;
      cursor = seen.at(-1);
    }
    expect(seen).toEqual(newestFirst);
  });

  it('validates limit and starting_after', async () => {
    const { createPayment, json } = createHarness();
    await createPayment();
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'limit=']) {
      const { status, body } = await json('GET', `/v1/payments?${query}`);
      expect(status, query).toBe(400);
      expect(body.param).toBe('limit');
    }
    const unknown = await json('GET', '/v1/payments?starting_after=pay_unknown');
    expect(unknown.status).toBe(400);
    expect(unknown.body.param).toBe('starting_after');
    const full = await json('GET', '/v1/payments?limit=100');
    expect(full.status).toBe(200);
  });
});

describe('capture, cancel, refund', () => {
  it('captures an authorization partially', async () => {
    const { createPayment, json } = createHarness();
    const payment = await createPayment({ capture: false });
    const captured = await json('POST', `/v1/payments/${payment.id}/capture`, {
      body: { amount: 600 },
    });
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ status: 'SUCCEEDED', amount_captured: 600 });
    const again = await json('POST', `/v1/payments/${payment.id}/capture`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_state');
    expect(again.body.detail).toContain('SUCCEEDED');
    expect(again.body.detail).toContain('refund');
  });

  it('captures in full with no body, and refuses more than authorized', async () => {
    const { createPayment, json } = createHarness();
    const payment = await createPayment({ capture: false });
    const tooMuch = await json('POST', `/v1/payments/${payment.id}/capture`, {
      body: { amount: 1001 },
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.param).toBe('amount');
    const full = await json('POST', `/v1/payments/${payment.id}/capture`);
    expect(full.body).toMatchObject({ status: 'SUCCEEDED', amount_captured: 1000 });
  });

  it('cancels an authorization and then refuses to capture it', async () => {
    const { createPayment, json } = createHarness();
    const payment = await createPayment({ capture: false });
    const canceled = await json('POST', `/v1/payments/${payment.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('CANCELED');
    const capture = await json('POST', `/v1/payments/${payment.id}/capture`);
    expect(capture.status).toBe(409);
    expect(capture.body.detail).toContain('CANCELED');
  });

  it('accepts an empty object for cancel and refuses fields and non-JSON bodies', async () => {
    const { createPayment, json } = createHarness();
    const payment = await createPayment({ capture: false });
    const withField = await json('POST', `/v1/payments/${payment.id}/cancel`, {
      body: { reason: 'x' },
    });
    expect(withField.status).toBe(400);
    expect(withField.body.errors[0]).toMatchObject({ param: 'reason', code: 'unknown_field' });
    const notJson = await json('POST', `/v1/payments/${payment.id}/cancel`, {
      rawBody: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.status).toBe(415);
    const empty = await json('POST', `/v1/payments/${payment.id}/cancel`, { body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.status).toBe('CANCELED');
  });

  it('refunds partially, then fully to REFUNDED', async () => {
    const { createPayment, json } = createHarness();
    const payment = await createPayment();
    const partial = await json('POST', `/v1/payments/${payment.id}/refunds`, {
      body: { amount: 250 },
    });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({
      object: 'refund',
      payment_id: payment.id,
      amount: 250,
      currency: 'KZT',
      status: 'SUCCEEDED',
      created_at: '2025-01-15T12:00:00Z',
    });
    expect(partial.body.id).toMatch(/^ref_[A-Za-z0-9]{24}$/);
    const afterPartial = await json('GET', `/v1/payments/${payment.id}`);
    expect(afterPartial.body).toMatchObject({ status: 'SUCCEEDED', amount_refunded: 250 });
    const excess = await json('POST', `/v1/payments/${payment.id}/refunds`, {
      body: { amount: 751 },
    });
    expect(excess.status).toBe(400);
    expect(excess.body.param).toBe('amount');
    const rest = await json('POST', `/v1/payments/${payment.id}/refunds`);
    expect(rest.body.amount).toBe(750);
    const refunded = await json('GET', `/v1/payments/${payment.id}`);
    expect(refunded.body).toMatchObject({ status: 'REFUNDED', amount_refunded: 1000 });
  });

  it('answers 409 for actions on FAILED payments and 404 for unknown ids', async () => {
    const { createPayment, json } = createHarness();
    const failed = await createPayment({
      payment_method: { type: 'token', token: 'tok_test_declined' },
    });
    for (const action of ['capture', 'cancel', 'refunds']) {
      const { status, body } = await json('POST', `/v1/payments/${failed.id}/${action}`);
      expect(status, action).toBe(409);
      expect(body.detail).toContain('FAILED');
    }
    const unknown = await json('POST', '/v1/payments/pay_unknown/capture');
    expect(unknown.status).toBe(404);
  });
});

describe('pending settlement', () => {
  it('settles pending payments lazily on the sandbox clock', async () => {
    const { createPayment, json, clock } = createHarness({ settlementDelaySeconds: 5 });
    const pending = await createPayment({
      payment_method: { type: 'token', token: 'tok_test_pending' },
    });
    const pendingAuth = await createPayment({
      capture: false,
      payment_method: { type: 'token', token: 'tok_test_pending' },
    });
    const pendingDeclined = await createPayment({
      payment_method: { type: 'token', token: 'tok_test_pending_declined' },
    });
    expect(pending.status).toBe('PENDING');
    clock.advance(4999);
    expect((await json('GET', `/v1/payments/${pending.id}`)).body.status).toBe('PENDING');
    clock.advance(1);
    expect((await json('GET', `/v1/payments/${pending.id}`)).body).toMatchObject({
      status: 'SUCCEEDED',
      amount_captured: 1000,
    });
    expect((await json('GET', `/v1/payments/${pendingAuth.id}`)).body.status).toBe('AUTHORIZED');
    expect((await json('GET', `/v1/payments/${pendingDeclined.id}`)).body).toMatchObject({
      status: 'FAILED',
      failure_code: 'card_declined',
    });
  });

  it('answers 409 for actions on a PENDING payment', async () => {
    const { createPayment, json } = createHarness();
    const pending = await createPayment({
      payment_method: { type: 'token', token: 'tok_test_pending' },
    });
    const { status, body } = await json('POST', `/v1/payments/${pending.id}/refunds`);
    expect(status).toBe(409);
    expect(body.detail).toContain('PENDING');
  });
});
