// The checks of records read back from a store: the snapshot readers' rules on a store's own forms (ms times, records in flight, the id a payment is stored under), each problem named by its field.
import { describe, expect, it } from 'vitest';
import { testPayment } from '../test-support/payment.js';
import { RECORD_CHECKS as checks } from '../test-support/redis-stores.js';

const at = Date.UTC(2026, 0, 1);
const payment = testPayment('pay_1');
const stored = {
  id: 'pay_1',
  json: JSON.stringify(payment),
  token: 'tok_test_success',
  settlesAt: null,
  timeline: [at, 'AUTHORIZED', 1000, null],
};
const record = {
  key: 'order-1',
  method: 'POST',
  path: '/v1/payments',
  bodyFingerprint: '',
  expiresAt: at,
  serverExpiresAt: at,
};

describe('createRecordChecks', () => {
  it('passes what the sandbox writes, and names the field of what it never writes', () => {
    expect(checks.payment(stored)).toBeUndefined();
    expect(checks.payment({ ...stored, settlesAt: at })?.field).toBe('settles_at');
    expect(checks.payment({ ...stored, timeline: [at, 'AUTHORIZED', 1000, '[{}]'] })?.field).toBe(
      'timeline[1].at',
    );
    expect(checks.payment({ ...stored, token: 'tok_nope' })?.field).toBe('token');
    expect(checks.payment({ ...stored, timeline: 'x' })?.message).toMatch(
      /^timeline must be \[created at, status, amount, later steps as JSON or null\]/,
    );
  });

  it('takes a record in flight only where a store keeps them', () => {
    expect(checks.idempotencyRecord(record, true)).toBeUndefined();
    expect(checks.idempotencyRecord(record, false)?.field).toBe('record');
    expect(checks.idempotencyRecord({ ...record, serverExpiresAt: 1e300 }, true)?.field).toBe(
      'serverExpiresAt',
    );
  });

  it('checks a stored answer with its problem code', () => {
    const body = JSON.stringify(payment);
    const response = { status: 201, headers: { 'content-type': 'application/json' }, body };
    expect(checks.idempotencyRecord({ ...record, response }, false)).toBeUndefined();
    const coded = { ...response, code: 'no_such_code' };
    expect(checks.idempotencyRecord({ ...record, response: coded }, false)?.field).toBe(
      'response.code',
    );
  });

  it("checks an inspector's request as the inspector would show it", () => {
    const entry = {
      requestId: 'req_1',
      method: 'GET',
      path: '/v1/payments',
      status: 200,
      code: null,
      latencyMs: 1,
      receivedAt: at,
      requestBody: null,
      responseBody: '{}',
      truncated: false,
    };
    expect(checks.request(entry)).toBeUndefined();
    expect(checks.request({ ...entry, requestId: 'x' })?.field).toBe('request_id');
    expect(checks.request({ ...entry, receivedAt: -1e15 })?.field).toBe('receivedAt');
    expect(checks.request({ ...entry, path: 5 })?.field).toBe('request');
  });

  it('never shows a signing key, and names what is wrong with it', () => {
    const endpoint = {
      id: 'we_1',
      object: 'webhook_endpoint',
      url: 'https://shop.example/hooks',
      events: ['payment.succeeded'],
      status: 'enabled',
      created_at: '2026-01-01T00:00:00Z',
    };
    const problem = checks.endpoint(endpoint, 'not base64 !');
    expect(problem?.field).toBe('signing_key_base64');
    expect(problem?.message).not.toContain('not base64');
  });
});
