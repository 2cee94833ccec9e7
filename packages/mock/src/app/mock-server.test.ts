import { describe, expect, it } from 'vitest';
import { STORES } from '../test-support/async-store.js';
import { createHarness, TEST_KEY, validCreateBody } from '../test-support/harness.js';

const PROBLEM_TYPE = 'application/problem+json';

for (const { name: store, hooks } of STORES) {
  describe(store, () => {
    describe('create payment', () => {
      it('creates a SUCCEEDED payment with exactly the spec fields', async () => {
        const { json } = createHarness({}, hooks);
        const { status, headers, body } = await json('POST', '/v1/payments', {
          body: validCreateBody,
        });
        expect(status).toBe(201);
        expect(headers.get('content-type')).toBe('application/json');
        expect(headers.get('request-id')).toMatch(/^req_[A-Za-z0-9]+$/);
        expect(Object.keys(body)).toEqual([
          'id',
          'object',
          'status',
          'amount',
          'currency',
          'created_at',
          'capture',
          'description',
          'amount_captured',
          'amount_refunded',
          'failure_code',
          'failure_message',
        ]);
        expect(body).toMatchObject({
          object: 'payment',
          status: 'SUCCEEDED',
          amount: 1000,
          currency: 'KZT',
          created_at: '2025-01-15T12:00:00Z',
          capture: true,
          description: 'Order 42',
          amount_captured: 1000,
          amount_refunded: 0,
          failure_code: null,
          failure_message: null,
        });
        expect(body.id).toMatch(/^pay_[A-Za-z0-9]{24}$/);
      });

      it('authorizes with capture false and defaults description to null', async () => {
        const { createPayment } = createHarness({}, hooks);
        const payment = await createPayment({ capture: false, currency: 'RUB' });
        expect(payment).toMatchObject({
          status: 'AUTHORIZED',
          capture: false,
          amount_captured: 0,
          description: null,
        });
      });

      it.each([
        ['tok_test_declined', 'card_declined'],
        ['tok_test_insufficient_funds', 'insufficient_funds'],
        ['tok_test_expired_card', 'expired_card'],
        ['tok_test_processing_error', 'processing_error'],
      ])('answers 201 FAILED for %s', async (token, failureCode) => {
        const { json } = createHarness({}, hooks);
        const { status, body } = await json('POST', '/v1/payments', {
          body: { ...validCreateBody, payment_method: { type: 'token', token } },
        });
        expect(status).toBe(201);
        expect(body.status).toBe('FAILED');
        expect(body.failure_code).toBe(failureCode);
        expect(body.failure_message).toEqual(expect.any(String));
        expect(body.amount_captured).toBe(0);
      });

      it('uses merchant-configured extra tokens', async () => {
        const { createPayment } = createHarness(
          {
            extraTokens: {
              tok_test_fraud: {
                description: 'FAILED, fraudulent',
                outcome: { failure_code: 'fraudulent', failure_message: 'Suspected fraud.' },
              },
            },
          },
          hooks,
        );
        const payment = await createPayment({
          payment_method: { type: 'token', token: 'tok_test_fraud' },
        });
        expect(payment.failure_code).toBe('fraudulent');
      });
    });

    describe('authentication', () => {
      it('answers 401 missing_api_key without Authorization', async () => {
        const { json } = createHarness({}, hooks);
        const { status, headers, body } = await json('GET', '/v1/payments', { apiKey: null });
        expect(status).toBe(401);
        expect(headers.get('content-type')).toBe(PROBLEM_TYPE);
        expect(headers.get('request-id')).toBe(body.request_id);
        expect(body).toMatchObject({
          type: 'urn:payment-service:problem:missing_api_key',
          title: expect.any(String),
          status: 401,
          code: 'missing_api_key',
        });
      });

      it('answers invalid_api_key and live_key_in_sandbox without echoing the key', async () => {
        const { call } = createHarness({}, hooks);
        const malformed = await call('GET', '/v1/payments', { apiKey: 'sk_test_x' });
        expect(malformed.status).toBe(401);
        expect((await malformed.json()).code).toBe('invalid_api_key');
        const live = await call('GET', '/v1/payments', { apiKey: 'sk_live_TOPSECRET123' });
        const text = await live.text();
        expect(live.status).toBe(401);
        expect(JSON.parse(text).code).toBe('live_key_in_sandbox');
        expect(text).not.toContain('TOPSECRET');
        expect(JSON.parse(text).detail).toContain('sk_test_');
      });

      it('isolates every key', async () => {
        const { createPayment, json } = createHarness({}, hooks);
        const payment = await createPayment();
        const other = await json('GET', `/v1/payments/${payment.id}`, {
          apiKey: 'sk_test_other_key_1',
        });
        expect(other.status).toBe(404);
        const list = await json('GET', '/v1/payments', { apiKey: 'sk_test_other_key_1' });
        expect(list.body.data).toEqual([]);
      });
    });

    describe('routing', () => {
      it('answers 404 not_found for unknown paths, with Request-Id', async () => {
        const { json } = createHarness({}, hooks);
        for (const path of [
          '/',
          '/v2/payments',
          '/v1/refunds',
          '/v1/payments/pay_1/unknown',
          '/v1',
        ]) {
          const { status, headers, body } = await json('GET', path);
          expect(status, path).toBe(404);
          expect(body.code).toBe('not_found');
          expect(headers.get('request-id')).toMatch(/^req_/);
        }
      });

      it('answers 405 with Allow for a known path and another method', async () => {
        const { json } = createHarness({}, hooks);
        const cases: [string, string, string][] = [
          ['DELETE', '/v1/payments', 'GET, POST'],
          ['POST', '/v1/payments/pay_1', 'GET'],
          ['GET', '/v1/payments/pay_1/capture', 'POST'],
          ['PATCH', '/_sandbox/faults', 'GET, PUT, DELETE'],
        ];
        for (const [method, path, allow] of cases) {
          const { status, headers, body } = await json(method, path);
          expect(status, `${method} ${path}`).toBe(405);
          expect(headers.get('allow')).toBe(allow);
          expect(body.code).toBe('method_not_allowed');
        }
      });
    });

    describe('request checks', () => {
      it('answers 415 for a body that is not application/json', async () => {
        const { json } = createHarness({}, hooks);
        const { status, body } = await json('POST', '/v1/payments', {
          rawBody: JSON.stringify(validCreateBody),
          headers: { 'content-type': 'text/plain' },
        });
        expect(status).toBe(415);
        expect(body.code).toBe('unsupported_media_type');
      });

      it('accepts a charset parameter', async () => {
        const { json } = createHarness({}, hooks);
        const { status } = await json('POST', '/v1/payments', {
          rawBody: JSON.stringify(validCreateBody),
          headers: { 'content-type': 'application/json; charset=UTF-8' },
        });
        expect(status).toBe(201);
      });

      it('answers 413 above maxBodyBytes, by Content-Length and by actual bytes', async () => {
        const { mock, json } = createHarness({ maxBodyBytes: 100 }, hooks);
        const big = JSON.stringify({ ...validCreateBody, description: 'x'.repeat(200) });
        const declared = await json('POST', '/v1/payments', {
          rawBody: big,
          headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
        });
        expect(declared.status).toBe(413);
        expect(declared.body.code).toBe('body_too_large');
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(big));
            controller.close();
          },
        });
        // No Content-Length: the limit is enforced on the bytes actually read.
        const streamed = await mock.fetch(
          new Request('http://sandbox.test/v1/payments', {
            method: 'POST',
            headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
            body: stream,
            duplex: 'half',
          } as RequestInit),
        );
        expect(streamed.status).toBe(413);
        expect(streamed.headers.get('request-id')).toMatch(/^req_/);
      });

      it('answers 400 invalid_json for malformed JSON', async () => {
        const { json } = createHarness({}, hooks);
        const { status, body } = await json('POST', '/v1/payments', {
          rawBody: '{"amount": 10,',
          headers: { 'content-type': 'application/json' },
        });
        expect(status).toBe(400);
        expect(body.code).toBe('invalid_json');
      });

      it('lists every field problem in invalid_request', async () => {
        const { json } = createHarness({}, hooks);
        const { status, body } = await json('POST', '/v1/payments', {
          body: {
            amount: 1.5,
            currency: 'kzt',
            capture: 'yes',
            payment_method: { type: 'card', token: 'tok_test_success', extra: 1 },
            colour: 'red',
          },
          headers: { 'idempotency-key': '' },
        });
        expect(status).toBe(400);
        expect(body.code).toBe('invalid_request');
        const params = body.errors.map((error: { param: string }) => error.param).sort();
        expect(params).toEqual(
          [
            'Idempotency-Key',
            'amount',
            'capture',
            'colour',
            'currency',
            'payment_method.extra',
            'payment_method.type',
          ].sort(),
        );
        expect(body.param).toBe(body.errors[0].param);
        const amountError = body.errors.find(
          (error: { param: string }) => error.param === 'amount',
        );
        expect(amountError.message).toContain('amount must be an integer ≥ 1');
        const unknown = body.errors.find((error: { param: string }) => error.param === 'colour');
        expect(unknown.code).toBe('unknown_field');
      });

      it('reports missing required fields and a missing body', async () => {
        const { json } = createHarness({}, hooks);
        const empty = await json('POST', '/v1/payments', { body: {} });
        expect(empty.status).toBe(400);
        expect(empty.body.errors.map((error: { param: string }) => error.param).sort()).toEqual([
          'amount',
          'currency',
          'payment_method',
        ]);
        const none = await json('POST', '/v1/payments', {});
        expect(none.status).toBe(400);
        expect(none.body.code).toBe('invalid_request');
      });

      it('refuses non-test tokens and lists the token table for unknown test tokens', async () => {
        const { json } = createHarness({}, hooks);
        const live = await json('POST', '/v1/payments', {
          body: { ...validCreateBody, payment_method: { type: 'token', token: 'tok_visa' } },
        });
        expect(live.status).toBe(400);
        expect(live.body.param).toBe('payment_method.token');
        expect(live.body.detail).toContain('only test tokens');
        const unknown = await json('POST', '/v1/payments', {
          body: { ...validCreateBody, payment_method: { type: 'token', token: 'tok_test_nope' } },
        });
        expect(unknown.status).toBe(400);
        expect(unknown.body.param).toBe('payment_method.token');
        for (const token of [
          'tok_test_success',
          'tok_test_pending_declined',
          'tok_test_expired_card',
        ]) {
          expect(unknown.body.detail).toContain(token);
        }
      });
    });
  });
}
