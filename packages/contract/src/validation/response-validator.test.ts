// Unit tests of the response validator: each kind of violation, the check it names and the element's provenance.
import { describe, expect, it } from 'vitest';
import { resolveElement } from '../spec/elements.js';
import { specDocuments } from '../spec/spec-index.js';
import {
  createResponseValidator,
  type Exchange,
  type SchemaViolation,
} from './response-validator.js';

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

const provenanceOf = (violation: SchemaViolation | undefined) =>
  violation ? resolveElement(violation.element).provenance : undefined;

describe('createResponseValidator', () => {
  it('accepts a payment that honours the spec, listing every check it exercised', () => {
    const result = validator.check(created(payment));
    expect(result).toMatchObject({ operation: 'createPayment', statusKey: '201', violations: [] });
    const ids = result.checks.map((check) => check.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'status.success',
        'content-type',
        'header.Request-Id',
        'schema.Payment',
        'schema.Payment.created_at',
        'schema.Payment.status',
      ]),
    );
  });

  it('reports another 2xx than the inferred 201 as an inferred status.success failure, and still checks the body', () => {
    const result = validator.check({ ...created({ ...payment, id: 7 }), status: 200 });
    expect(result.violations.map((violation) => violation.id)).toEqual([
      'status.success',
      'schema.Payment.id',
    ]);
    expect(provenanceOf(result.violations[0])).toEqual({
      kind: 'inferred',
      note: 'The document shows the created payment but not the HTTP status code.',
    });
    expect(provenanceOf(result.violations[1])).toEqual({ kind: 'documented', section: '2.1' });
  });

  it('names created_at with milliseconds as the documented Payment.created_at, and a refund’s created_at as inferred', () => {
    const [violation, ...rest] = validator.check(
      created({ ...payment, created_at: '2026-11-22T04:00:00.123Z' }),
    ).violations;
    expect(rest).toEqual([]);
    expect(violation).toMatchObject({
      id: 'schema.Payment.created_at',
      actual: '"2026-11-22T04:00:00.123Z"',
    });
    expect(provenanceOf(violation)).toEqual({ kind: 'documented', section: '2.1' });
    const refund = validator.check({
      ...created({
        id: 'ref_1',
        object: 'refund',
        payment_id: 'pay_1',
        amount: 1,
        currency: 'KZT',
        status: 'SUCCEEDED',
        created_at: 'soon',
      }),
      path: '/v1/payments/pay_1/refunds',
    });
    const refundViolation = refund.violations.find(
      (item) => item.id === 'schema.Refund.created_at',
    );
    expect(provenanceOf(refundViolation)?.kind).toBe('inferred');
  });

  it('names a missing object field and a missing inferred field by their element', () => {
    const { object: _object, amount_refunded: _refunded, ...rest } = payment;
    const violations = validator.check(created(rest)).violations;
    expect(violations.map((violation) => [violation.id, provenanceOf(violation)?.kind])).toEqual([
      ['schema.Payment.object', 'documented'],
      ['schema.Payment.amount_refunded', 'inferred'],
    ]);
  });

  it('files a status outside the enum under the inferred list of statuses', () => {
    const [violation] = validator.check(created({ ...payment, status: 'COMPLETED' })).violations;
    expect(violation).toMatchObject({ id: 'schema.Payment.status', actual: '"COMPLETED"' });
    expect(violation?.expected).toContain('SUCCEEDED');
    expect(provenanceOf(violation)?.kind).toBe('inferred');
  });

  it('tolerates unknown extra fields in a response', () => {
    expect(validator.check(created({ ...payment, risk_score: 3 })).violations).toEqual([]);
  });

  it('reports a missing Request-Id, a wrong content type and a body that is not JSON', () => {
    const noRequestId = validator.check({
      ...created(payment),
      headers: { 'content-type': 'application/json' },
    });
    expect(noRequestId.violations.map((violation) => [violation.id, violation.actual])).toEqual([
      ['header.Request-Id', 'absent'],
    ]);
    const html = validator.check(created(payment, { 'content-type': 'text/html' }));
    expect(html.violations).toMatchObject([{ id: 'content-type', actual: 'text/html' }]);
    const notJson = validator.check({ ...created(payment), body: '<html>' });
    expect(notJson.violations).toMatchObject([{ id: 'content-type', expected: 'a JSON body' }]);
  });

  it('reports a status the operation does not declare under the inferred error model', () => {
    const result = validator.check({ ...created(payment), status: 302 });
    expect(result.statusKey).toBeUndefined();
    expect(result.violations).toMatchObject([{ id: 'status.error', actual: 'status 302' }]);
    expect(provenanceOf(result.violations[0])?.kind).toBe('inferred');
  });

  it('checks problem bodies of error statuses', () => {
    const result = validator.check({
      method: 'GET',
      path: '/v1/payments/pay_x',
      status: 404,
      headers: { 'content-type': 'application/problem+json', 'request-id': 'req_1' },
      body: JSON.stringify({ title: 'Not found', status: 404, code: 'nope' }),
    });
    expect(result.operation).toBe('retrievePayment');
    expect(result.violations.map((violation) => violation.id)).toEqual(
      expect.arrayContaining(['schema.Problem.type', 'schema.Problem.code']),
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
    expect(wrong.violations).toMatchObject([
      {
        id: 'route.undeclared',
        actual: 'status 200, no Request-Id header, content type application/json',
      },
    ]);
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
    expect(result).toMatchObject({ operation: 'advanceSandboxClock', spec: 'sandbox' });
    expect(result.violations[0]?.expected).toContain('/now');
  });

  it('finds the element of a response field', () => {
    expect(validator.elementAt('listPayments', 200, ['data', '0', 'status'])).toEqual({
      spec: 'openapi',
      pointer: '/components/schemas/Payment/properties/status',
    });
    expect(validator.elementAt('createPayment', 201, [])).toMatchObject({ facet: 'status' });
    expect(validator.elementAt('noSuchOperation', 200, [])).toBeUndefined();
  });
});

describe('createResponseValidator, called again', () => {
  it('shares one validator of the spec documents, and builds another for other documents', () => {
    expect(createResponseValidator()).toBe(validator);
    expect(createResponseValidator(specDocuments)).toBe(validator);
    const copy = structuredClone(specDocuments);
    const own = createResponseValidator(copy);
    expect(own).not.toBe(validator);
    // The shared one keeps judging by the spec after another validator was built and used.
    const body = { ...payment, amount: 'ten' };
    expect(own.check(created(body)).violations.map((v) => v.id)).toEqual(['schema.Payment.amount']);
    expect(validator.check(created(body)).violations.map((v) => v.id)).toEqual([
      'schema.Payment.amount',
    ]);
    expect(validator.check(created(payment)).violations).toEqual([]);
  });
});
