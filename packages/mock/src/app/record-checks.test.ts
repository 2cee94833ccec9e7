// The checks of records read back from a store: the snapshot readers' rules on a store's own forms (ms times, records in flight, the id a payment is stored under), each problem named by its field.
import type { components, SandboxComponents } from '@payment-service/openapi';
import { describe, expect, it } from 'vitest';
import { createTokenTable } from '../domain/tokens.js';
import {
  openapiRequestValidators,
  sandboxRequestValidators,
} from '../generated/request-validators.js';
import { type ApiValidators, createSchemaValidators } from '../shared/validation.js';
import { testPayment } from '../test-support/payment.js';
import { RECORD_CHECKS as checks } from '../test-support/redis-stores.js';
import { createRecordChecks } from './record-checks.js';

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
    // The API sends the text as it is: only as JSON.stringify writes it.
    for (const json of [
      JSON.stringify(payment, null, 1),
      JSON.stringify(payment).replace('"amount":1000,', '"amount":1e3,'),
      JSON.stringify(payment).replace('"amount":1000,', '"amount":1000.0,'),
      JSON.stringify(payment).replace('"amount":1000,', '"amount":7,"amount":1000,'),
      JSON.stringify(payment).replace('"payment"', '"\\u0070ayment"'),
    ]) {
      expect(checks.payment({ ...stored, json })?.message).toMatch(
        /^payment must be the payment's JSON as the sandbox writes it/,
      );
    }
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
    // The inspector masks a path as text (the SDK's masker reads a number as its digits), so the
    // spec's RecordedRequest names the field.
    expect(checks.request({ ...entry, path: 5 })?.field).toBe('path');
    expect(checks.request({ ...entry, method: undefined })?.field).toBe('method');
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

  it("checks a create's answer once when it is the text of one of the latest 1,024 payments checked (by id, equal text)", () => {
    const api = createSchemaValidators<
      components['schemas'],
      keyof typeof openapiRequestValidators
    >(openapiRequestValidators);
    let paymentChecks = 0;
    const validators: ApiValidators = {
      validator(name) {
        const validate = api.validator(name);
        return ((body: unknown) => {
          if (name === 'Payment') paymentChecks++;
          return validate(body);
        }) as typeof validate;
      },
    };
    const counted = createRecordChecks({
      validators,
      sandboxValidators: createSchemaValidators<
        SandboxComponents['schemas'],
        keyof typeof sandboxRequestValidators
      >(sandboxRequestValidators),
      tokens: createTokenTable({}),
      webhookPolicy: { allowPrivate: false, allowLoopback: true },
    });
    const texts = Array.from({ length: 1025 }, (_, index) =>
      JSON.stringify(testPayment(`pay_${index}`)),
    );
    for (const [index, json] of texts.entries()) {
      expect(counted.payment({ ...stored, id: `pay_${index}`, json })).toBeUndefined();
    }
    // Remembered again: it takes no other text's place.
    expect(counted.payment({ ...stored, id: 'pay_1024', json: texts[1024] })).toBeUndefined();
    const answering = (body: string) => {
      const before = paymentChecks;
      const response = { status: 201, headers: { 'content-type': 'application/json' }, body };
      expect(counted.idempotencyRecord({ ...record, response }, false)).toBeUndefined();
      return paymentChecks - before;
    };
    expect(answering(texts[1] as string)).toBe(0);
    expect(answering(texts[1024] as string)).toBe(0);
    // The oldest went to make room: its text is checked again.
    expect(answering(texts[0] as string)).toBe(1);
    // Remembered by id, found only by equal text: another text of a remembered payment's id (a
    // later state, or a forged one) is checked; a copy of the very text is not.
    const later = JSON.stringify({ ...testPayment('pay_5'), description: 'changed since' });
    expect(later.startsWith('{"id":"pay_5"')).toBe(true);
    expect(answering(later)).toBe(1);
    expect(answering(JSON.stringify(JSON.parse(texts[5] as string)))).toBe(0);
    // A payment changed since: its latest text is the one remembered, in the same place.
    expect(counted.payment({ ...stored, id: 'pay_5', json: later })).toBeUndefined();
    expect(answering(later)).toBe(0);
    expect(answering(texts[5] as string)).toBe(1);
    expect(answering(texts[6] as string)).toBe(0);
  });
});
