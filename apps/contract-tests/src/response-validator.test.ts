// Unit tests of the response validator: each kind of violation, and the provenance it is tagged with.
import { describe, expect, it } from 'vitest';
import { createResponseValidator, type Exchange } from './response-validator.js';

const validator = createResponseValidator();

const payment = {
  id: 'pay_abcdefghijklmnopqrstuvwx',
  object: 'payment',
  status: 'SUCCEEDED',
  amount: 1000,
  currency: 'KZT',
  created_at: '2026-11-22T04:00:00Z',
  capture: true,
  description: null,
  amount_captured: 1000,
  amount_refunded: 0,
  failure_code: null,
  failure_message: null,
};

function created(body: unknown, headers: Record<string, string> = {}): Exchange {
  return {
    method: 'POST',
    path: '/v1/payments',
    status: 201,
    headers: { 'content-type': 'application/json', 'request-id': 'req_abc123', ...headers },
    body: JSON.stringify(body),
  };
}

describe('createResponseValidator', () => {
  it('accepts a payment that honours the spec', () => {
    const result = validator.check(created(payment));
    expect(result).toMatchObject({
      operation: 'openapi:createPayment',
      statusKey: '201',
      violations: [],
    });
  });

  it('reports another 2xx than the inferred success code as inferred success-code drift, and still checks the body', () => {
    const result = validator.check({ ...created(payment), status: 200 });
    expect(result.statusKey).toBe('201');
    expect(result.violations).toEqual([
      expect.objectContaining({
        provenance: 'inferred',
        successCodeDrift: true,
        message: 'status 200, the spec declares 201 for createPayment',
      }),
    ]);
    const broken = validator.check({ ...created({ ...payment, id: 7 }), status: 202 });
    expect(broken.violations).toHaveLength(2);
    expect(broken.violations[1]).toMatchObject({ provenance: 'documented' });
    expect(broken.violations[1]?.successCodeDrift).toBeUndefined();
  });

  it('tags a broken documented field as documented, with its section', () => {
    const [violation, ...rest] = validator.check(
      created({ ...payment, created_at: '2026-11-22T04:00:00.123Z' }),
    ).violations;
    expect(rest).toEqual([]);
    expect(violation).toMatchObject({ provenance: 'documented', source: 'provider document §2.1' });
    expect(violation?.message).toContain('/created_at');
  });

  it('tags a missing documented field as documented', () => {
    const { id: _id, ...withoutId } = payment;
    const [violation] = validator.check(created(withoutId)).violations;
    expect(violation).toMatchObject({ provenance: 'documented' });
    expect(violation?.message).toContain("'id'");
  });

  it('tags a missing inferred field and an unknown status as inferred', () => {
    const { amount_refunded: _refunded, ...withoutRefunded } = payment;
    const violations = validator.check(
      created({ ...withoutRefunded, status: 'SETTLED' }),
    ).violations;
    expect(violations).toHaveLength(2);
    expect(violations.every((violation) => violation.provenance === 'inferred')).toBe(true);
  });

  it('tolerates unknown extra fields in a response', () => {
    expect(validator.check(created({ ...payment, risk_score: 3 })).violations).toEqual([]);
  });

  it('reports a missing Request-Id, a wrong content type and a body that is not JSON', () => {
    const noRequestId = validator.check({
      ...created(payment),
      headers: { 'content-type': 'application/json' },
    });
    expect(noRequestId.violations.map((violation) => violation.message)).toEqual([
      'missing required header Request-Id',
    ]);
    const html = validator.check(created(payment, { 'content-type': 'text/html' }));
    expect(html.violations[0]?.message).toContain('content type text/html');
    const notJson = validator.check({ ...created(payment), body: '<html>' });
    expect(notJson.violations[0]?.message).toContain('not JSON');
  });

  it('reports a status the operation does not declare', () => {
    const result = validator.check({ ...created(payment), status: 302 });
    expect(result.statusKey).toBeUndefined();
    expect(result.violations[0]?.message).toContain('status 302 is not declared for createPayment');
  });

  it('checks problem bodies of error statuses', () => {
    const result = validator.check({
      method: 'GET',
      path: '/v1/payments/pay_x',
      status: 404,
      headers: { 'content-type': 'application/problem+json', 'request-id': 'req_1' },
      body: JSON.stringify({ title: 'Not found', status: 404 }),
    });
    expect(result.operation).toBe('openapi:retrievePayment');
    expect(result.violations.map((violation) => violation.message).join('\n')).toMatch(
      /'type'[\s\S]*'code'/,
    );
  });

  it('expects 404 or 405 problems from routes outside the spec', () => {
    const base = { method: 'GET', path: '/v1/charges', body: '{}' };
    const ok = validator.check({
      ...base,
      status: 404,
      headers: { 'content-type': 'application/problem+json', 'request-id': 'req_1' },
    });
    expect(ok).toMatchObject({ operation: 'undeclared', violations: [] });
    const wrong = validator.check({
      ...base,
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
    expect(wrong.violations).toHaveLength(3);
  });

  it('checks the sandbox controls against their own spec', () => {
    const result = validator.check({
      method: 'POST',
      path: '/_sandbox/clock/advance',
      status: 200,
      headers: { 'content-type': 'application/json', 'request-id': 'req_1' },
      body: JSON.stringify({
        object: 'sandbox_clock',
        now: 'later',
        offset_seconds: 5,
        settled_payments: 0,
      }),
    });
    expect(result.operation).toBe('sandbox:advanceSandboxClock');
    expect(result.violations[0]?.message).toContain('/now');
  });
});
