// A table of bad inputs sent around the SDK: each gets a problem+json answer with the right status, code and field, never a 5xx.
import { describe, expect, it } from 'vitest';
import { targetNames } from '../harness/targets.js';
import { type RawRequest, useTarget } from '../harness/use-target.js';

const validBody = {
  amount: 1000,
  currency: 'KZT',
  capture: true,
  description: 'bad-input table',
  payment_method: { type: 'token', token: 'tok_test_success' },
};

const withBody = (changes: Record<string, unknown>) => ({ ...validBody, ...changes });
const without = (field: string) => {
  const copy: Record<string, unknown> = { ...validBody };
  delete copy[field];
  return copy;
};

interface BadInputCase {
  name: string;
  path?: string;
  request: RawRequest;
  status: number;
  code: string;
  /** The field the problem names in `param`, when one field is at fault. */
  param?: string;
  /** Fields that must all appear in `errors`. */
  errorParams?: string[];
}

const createCases: BadInputCase[] = [
  {
    name: 'amount as a string',
    request: { body: withBody({ amount: '1000' }) },
    status: 400,
    code: 'invalid_request',
    param: 'amount',
  },
  {
    name: 'amount as a float',
    request: { body: withBody({ amount: 10.5 }) },
    status: 400,
    code: 'invalid_request',
    param: 'amount',
  },
  {
    name: 'amount zero',
    request: { body: withBody({ amount: 0 }) },
    status: 400,
    code: 'invalid_request',
    param: 'amount',
  },
  {
    name: 'amount negative',
    request: { body: withBody({ amount: -100 }) },
    status: 400,
    code: 'invalid_request',
    param: 'amount',
  },
  {
    name: 'amount above the sandbox bound',
    request: { body: withBody({ amount: 10 ** 13 }) },
    status: 400,
    code: 'invalid_request',
    param: 'amount',
  },
  {
    name: 'amount null',
    request: { body: withBody({ amount: null }) },
    status: 400,
    code: 'invalid_request',
    param: 'amount',
  },
  {
    name: 'amount missing',
    request: { body: without('amount') },
    status: 400,
    code: 'invalid_request',
    param: 'amount',
  },
  {
    name: 'currency lower-case',
    request: { body: withBody({ currency: 'kzt' }) },
    status: 400,
    code: 'invalid_request',
    param: 'currency',
  },
  {
    name: 'currency of four letters',
    request: { body: withBody({ currency: 'KZTT' }) },
    status: 400,
    code: 'invalid_request',
    param: 'currency',
  },
  {
    name: 'currency as a number',
    request: { body: withBody({ currency: 398 }) },
    status: 400,
    code: 'invalid_request',
    param: 'currency',
  },
  {
    name: 'currency missing',
    request: { body: without('currency') },
    status: 400,
    code: 'invalid_request',
    param: 'currency',
  },
  {
    name: 'capture as a string',
    request: { body: withBody({ capture: 'yes' }) },
    status: 400,
    code: 'invalid_request',
    param: 'capture',
  },
  {
    name: 'description as a number',
    request: { body: withBody({ description: 42 }) },
    status: 400,
    code: 'invalid_request',
    param: 'description',
  },
  {
    name: 'payment_method missing',
    request: { body: without('payment_method') },
    status: 400,
    code: 'invalid_request',
    param: 'payment_method',
  },
  {
    name: 'payment_method as a string',
    request: { body: withBody({ payment_method: 'tok_test_success' }) },
    status: 400,
    code: 'invalid_request',
    param: 'payment_method',
  },
  {
    name: 'payment_method.type card',
    request: { body: withBody({ payment_method: { type: 'card', token: 'tok_test_success' } }) },
    status: 400,
    code: 'invalid_request',
    param: 'payment_method.type',
  },
  {
    name: 'payment_method.token missing',
    request: { body: withBody({ payment_method: { type: 'token' } }) },
    status: 400,
    code: 'invalid_request',
    param: 'payment_method.token',
  },
  {
    name: 'an extra top-level field',
    request: { body: withBody({ amount_in_dollars: 10 }) },
    status: 400,
    code: 'invalid_request',
    param: 'amount_in_dollars',
  },
  {
    name: 'an extra payment_method field',
    request: {
      body: withBody({ payment_method: { type: 'token', token: 'tok_test_success', cvc: '123' } }),
    },
    status: 400,
    code: 'invalid_request',
    param: 'payment_method.cvc',
  },
  {
    name: 'several wrong fields at once',
    request: { body: { amount: 'x', currency: 1, payment_method: {} } },
    status: 400,
    code: 'invalid_request',
    errorParams: ['amount', 'currency', 'payment_method.type', 'payment_method.token'],
  },
  { name: 'a JSON array', request: { body: '[]' }, status: 400, code: 'invalid_request' },
  { name: 'JSON null', request: { body: 'null' }, status: 400, code: 'invalid_request' },
  { name: 'a JSON string', request: { body: '"pay me"' }, status: 400, code: 'invalid_request' },
  {
    name: 'truncated JSON',
    request: { body: '{"amount": 1000, "currency": ' },
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'JSON with a trailing comma',
    request: { body: '{"amount": 1000,}' },
    status: 400,
    code: 'invalid_json',
  },
  { name: 'an empty body', request: { body: '' }, status: 400, code: 'invalid_request' },
  {
    name: 'deeply nested JSON',
    request: { body: `${'['.repeat(5000)}${']'.repeat(5000)}` },
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'a text/plain body',
    request: { body: JSON.stringify(validBody), headers: { 'content-type': 'text/plain' } },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'a form-encoded body',
    request: {
      body: 'amount=1000&currency=KZT',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'a 100 kB body',
    request: { body: withBody({ description: 'x'.repeat(100_000) }) },
    status: 413,
    code: 'body_too_large',
  },
  {
    name: 'a 2 MB body',
    request: { body: `{"description":"${'y'.repeat(2_000_000)}"}` },
    status: 413,
    code: 'body_too_large',
  },
  {
    name: 'a live token',
    request: { body: withBody({ payment_method: { type: 'token', token: 'tok_live_4242' } }) },
    status: 400,
    code: 'invalid_request',
    param: 'payment_method.token',
  },
  {
    name: 'an unknown test token',
    request: { body: withBody({ payment_method: { type: 'token', token: 'tok_test_nope' } }) },
    status: 400,
    code: 'invalid_request',
    param: 'payment_method.token',
  },
  {
    name: 'an Idempotency-Key over 255 characters',
    request: { body: validBody, headers: { 'idempotency-key': 'k'.repeat(256) } },
    status: 400,
    code: 'invalid_request',
    param: 'Idempotency-Key',
  },
];

const authCases: BadInputCase[] = [
  {
    name: 'no Authorization header',
    request: { body: validBody, apiKey: null },
    status: 401,
    code: 'missing_api_key',
  },
  {
    name: 'a Basic scheme',
    request: { body: validBody, apiKey: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } },
    status: 401,
    code: 'invalid_api_key',
  },
  {
    name: 'Bearer with no key',
    request: { body: validBody, apiKey: null, headers: { authorization: 'Bearer ' } },
    status: 401,
    code: 'invalid_api_key',
  },
  {
    name: 'a key without the sk_ prefix',
    request: { body: validBody, apiKey: 'pk_test_abcdefghijklmnop' },
    status: 401,
    code: 'invalid_api_key',
  },
  {
    name: 'a truncated test key',
    request: { body: validBody, apiKey: 'sk_test_' },
    status: 401,
    code: 'invalid_api_key',
  },
  {
    name: 'a key with spaces',
    request: { body: validBody, apiKey: 'sk_test_abc defghijkl' },
    status: 401,
    code: 'invalid_api_key',
  },
  {
    name: 'a live key',
    request: { body: validBody, apiKey: 'sk_live_abcdefghijklmnop' },
    status: 401,
    code: 'live_key_in_sandbox',
  },
  {
    name: 'a live key on retrieval',
    path: '/v1/payments/pay_abc',
    request: { apiKey: 'sk_live_abcdefghijklmnop' },
    status: 401,
    code: 'live_key_in_sandbox',
  },
  {
    name: 'no key on listing',
    path: '/v1/payments',
    request: { apiKey: null },
    status: 401,
    code: 'missing_api_key',
  },
];

const routeCases: BadInputCase[] = [
  { name: 'an unknown path', path: '/v1/charges', request: {}, status: 404, code: 'not_found' },
  {
    name: 'a path without the version',
    path: '/payments',
    request: { body: validBody },
    status: 404,
    code: 'not_found',
  },
  {
    name: 'an unknown payment',
    path: '/v1/payments/pay_doesnotexist000000000',
    request: {},
    status: 404,
    code: 'not_found',
  },
  {
    name: 'capturing an unknown payment',
    path: '/v1/payments/pay_doesnotexist000000000/capture',
    request: { method: 'POST' },
    status: 404,
    code: 'not_found',
  },
  {
    name: 'DELETE on payments',
    path: '/v1/payments',
    request: { method: 'DELETE' },
    status: 405,
    code: 'method_not_allowed',
  },
  {
    name: 'PUT on a payment',
    path: '/v1/payments/pay_abc',
    request: { method: 'PUT', body: validBody },
    status: 405,
    code: 'method_not_allowed',
  },
  {
    name: 'limit zero',
    path: '/v1/payments?limit=0',
    request: {},
    status: 400,
    code: 'invalid_request',
    param: 'limit',
  },
  {
    name: 'limit above 100',
    path: '/v1/payments?limit=101',
    request: {},
    status: 400,
    code: 'invalid_request',
    param: 'limit',
  },
  {
    name: 'limit not a number',
    path: '/v1/payments?limit=ten',
    request: {},
    status: 400,
    code: 'invalid_request',
    param: 'limit',
  },
  {
    name: 'starting_after an unknown payment',
    path: '/v1/payments?starting_after=pay_unknown',
    request: {},
    status: 400,
    code: 'invalid_request',
    param: 'starting_after',
  },
  {
    name: 'a capture amount of zero',
    path: '/v1/payments/pay_abc/capture',
    request: { body: { amount: 0 } },
    status: 400,
    code: 'invalid_request',
    param: 'amount',
  },
  {
    name: 'a refund amount as a string',
    path: '/v1/payments/pay_abc/refunds',
    request: { body: { amount: '5' } },
    status: 400,
    code: 'invalid_request',
    param: 'amount',
  },
  {
    name: 'a refund with an unknown field',
    path: '/v1/payments/pay_abc/refunds',
    request: { body: { reason: 'fraud' } },
    status: 400,
    code: 'invalid_request',
    param: 'reason',
  },
  {
    name: 'a cancel with an option',
    path: '/v1/payments/pay_abc/cancel',
    request: { body: { reason: 'duplicate' } },
    status: 400,
    code: 'invalid_request',
    param: 'reason',
  },
  {
    name: 'a capture with a text body',
    path: '/v1/payments/pay_abc/capture',
    request: { body: 'amount=1', headers: { 'content-type': 'text/plain' } },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'a refund with a huge body',
    path: '/v1/payments/pay_abc/refunds',
    request: { body: { pad: 'z'.repeat(70_000) } },
    status: 413,
    code: 'body_too_large',
  },
];

describe.each(targetNames())('bad inputs (%s)', (name) => {
  const ctx = useTarget(name);

  it.each([...createCases, ...authCases, ...routeCases])(
    '$name → $status $code',
    async ({ path = '/v1/payments', request, status, code, param, errorParams }) => {
      const response = await ctx.send(path, request);
      expect(response.status, response.text.slice(0, 300)).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.headers.get('request-id')).toMatch(/^req_/);
      expect(response.json).toMatchObject({
        status,
        code,
        request_id: response.headers.get('request-id'),
      });
      expect(response.json.detail).toEqual(expect.any(String));
      if (param !== undefined) expect(response.json.param).toBe(param);
      if (errorParams) {
        const listed = (response.json.errors as Array<{ param: string }>).map(
          (error) => error.param,
        );
        expect(listed).toEqual(expect.arrayContaining(errorParams));
      }
      if (status === 405) expect(response.headers.get('allow')).toBeTruthy();
      if (request.apiKey && request.apiKey.length > 'sk_test_'.length) {
        expect(response.text).not.toContain(request.apiKey);
      }
    },
  );

  it('lists every test token in the unknown-token error', async () => {
    const response = await ctx.send('/v1/payments', {
      body: withBody({ payment_method: { type: 'token', token: 'tok_test_typo' } }),
    });
    for (const token of [
      'tok_test_success',
      'tok_test_declined',
      'tok_test_insufficient_funds',
      'tok_test_expired_card',
      'tok_test_processing_error',
      'tok_test_pending',
      'tok_test_pending_declined',
    ]) {
      expect(response.json.detail).toContain(token);
    }
  });

  it('names the expected value in field errors', async () => {
    const response = await ctx.send('/v1/payments', { body: withBody({ amount: 10.5 }) });
    const [first] = response.json.errors as Array<{ param: string; message: string }>;
    expect(first?.param).toBe('amount');
    expect(first?.message).toMatch(/integer/);
  });

  it('answers a wrong method with the allowed ones', async () => {
    const response = await ctx.send('/v1/payments', { method: 'DELETE' });
    expect(response.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['GET', 'POST']);
  });
});
