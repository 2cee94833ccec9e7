import type { components } from '@payment-service/openapi';
import { describe, expect, it, vi } from 'vitest';
import { openapiRequestValidators } from '../generated/request-validators.js';
import { createSchemaValidators, describeExpectation } from './validation.js';

const validators = createSchemaValidators<
  components['schemas'],
  keyof typeof openapiRequestValidators
>(openapiRequestValidators);
const check = validators.validator('CreatePaymentRequest');
const validateCreate = (body: unknown) => {
  const checked = check(body);
  return checked.ok ? [] : checked.errors;
};

describe('createSchemaValidators', () => {
  it('accepts a valid body', () => {
    expect(
      validateCreate({
        amount: 1,
        currency: 'RUB',
        capture: false,
        description: 'x',
        payment_method: { type: 'token', token: 'tok_test_success' },
      }),
    ).toEqual([]);
  });

  it('says which field is wrong and what was expected', () => {
    const errors = validateCreate({
      amount: 0,
      currency: 'KZTX',
      payment_method: { type: 'token' },
    });
    expect(errors).toEqual([
      {
        param: 'amount',
        code: 'minimum',
        message: 'amount must be an integer ≥ 1 and ≤ 999999999999',
      },
      {
        param: 'currency',
        code: 'invalid_value',
        message: 'currency must be a string matching ^[A-Z]{3}$ (for example KZT or RUB)',
      },
      {
        param: 'payment_method.token',
        code: 'required',
        message: 'payment_method.token is required',
      },
    ]);
  });

  it('names unknown fields and the fields that are accepted', () => {
    const [error] = validateCreate({
      amount: 1,
      currency: 'KZT',
      payment_method: { type: 'token', token: 't', cvc: '123' },
    });
    expect(error).toEqual({
      param: 'payment_method.cvc',
      code: 'unknown_field',
      message: 'payment_method.cvc is not a known field; payment_method accepts type, token',
    });
  });

  it('refuses a body that is not an object', () => {
    expect(validateCreate([])).toEqual([
      { param: '', code: 'type', message: 'the request body must be a JSON object' },
    ]);
  });

  it('throws for a schema with no compiled validator', () => {
    const compiled: Readonly<Record<string, never>> = {};
    expect(() =>
      createSchemaValidators<Record<string, unknown>, string>(compiled).validator('Nope'),
    ).toThrow(/Nope/);
  });
});

describe('describeExpectation', () => {
  it('describes types and bounds', () => {
    expect(describeExpectation({ type: 'integer', minimum: 1 })).toBe('an integer ≥ 1');
    expect(describeExpectation({ type: 'boolean' })).toBe('a boolean (true or false)');
    expect(describeExpectation({ type: 'string', enum: ['token'] })).toBe('one of "token"');
    expect(describeExpectation({ type: 'string', minLength: 1, maxLength: 255 })).toBe(
      'a string of 1 to 255 characters',
    );
  });
});

describe('bounded validation of hostile bodies', () => {
  const compiled = openapiRequestValidators.CreateWebhookEndpointRequest;
  const explained = vi.fn((body: unknown) => compiled.explain(body));
  const spied = createSchemaValidators<
    components['schemas'],
    keyof typeof openapiRequestValidators
  >({
    ...openapiRequestValidators,
    CreateWebhookEndpointRequest: {
      check: compiled.check,
      explain: Object.defineProperty(explained, 'errors', { get: () => compiled.explain.errors }),
    },
  });
  const endpoint = spied.validator('CreateWebhookEndpointRequest');
  const errorsOf = (body: unknown) => {
    const checked = endpoint(body);
    return checked.ok ? [] : checked.errors;
  };

  it('answers an array over its maxItems with that one problem, without listing every item', () => {
    explained.mockClear();
    const events = Array.from({ length: 9000 }, (_, index) => `e${index}`);
    expect(errorsOf({ url: 'not a url', events })).toEqual([
      { param: 'events', code: 'max_items', message: 'events must have at most 32 items' },
    ]);
    expect(explained).not.toHaveBeenCalled();
  });

  it('answers an object over its maxProperties with that one problem', () => {
    const body: Record<string, unknown> = { url: 'https://example.com/hook' };
    for (let index = 0; index < 8000; index++) body[`u${index}`] = index;
    expect(errorsOf(body)).toEqual([
      {
        param: '',
        code: 'max_properties',
        message: 'the request body must have at most 32 members',
      },
    ]);
  });

  it('answers a string over its maxLength before its format is tested', () => {
    expect(errorsOf({ url: `https://example.com/${'a'.repeat(60_000)}` })).toEqual([
      {
        param: 'url',
        code: 'max_length',
        message: 'url must be a string of at most 2048 characters',
      },
    ]);
  });

  it('lists every problem of a body within its bounds', () => {
    explained.mockClear();
    const body: Record<string, unknown> = { events: ['payment.succeeded', 'payment.succeeded'] };
    for (let index = 0; index < 20; index++) body[`u${index}`] = index;
    const errors = errorsOf(body);
    expect(explained).toHaveBeenCalledOnce();
    expect(errors.map((error) => error.code)).toEqual([
      'required',
      ...Array.from({ length: 20 }, () => 'unknown_field'),
      'unique_items',
    ]);
    expect(errors.at(-1)?.message).toBe(
      'events must be an array of at least 1 and at most 32 distinct items',
    );
  });

  it("cuts an unknown member's name in what it repeats", () => {
    const name = 'x'.repeat(5000);
    const [error] = validateCreate({
      amount: 1,
      currency: 'KZT',
      payment_method: { type: 'token', token: 't' },
      [name]: 1,
    });
    expect(error?.param).toBe(`${'x'.repeat(64)}…`);
    expect(error?.message.length).toBeLessThan(200);
  });
});

describe('a webhook url: the error names the rule that failed (issue 40, item 15)', () => {
  const endpoint = validators.validator('CreateWebhookEndpointRequest');
  const errorsOf = (url: string) => {
    const checked = endpoint({ url });
    return checked.ok ? [] : checked.errors;
  };

  it('a host outside ASCII breaks RFC 3986 (format uri), which the error names with the fix', () => {
    const [error] = errorsOf('https://bücher.example/hooks');
    expect(error?.param).toBe('url');
    expect(error?.message).toBe(
      'url must be an absolute URI as RFC 3986 defines it (format uri): ASCII only, so write an international host name in its punycode form (xn--…) and percent-encode any other character outside ASCII',
    );
    // Neither the length nor the pattern, which the URL meets.
    expect(error?.message).not.toMatch(/2048|\^\[Hh\]/);
    expect(errorsOf('https://xn--bcher-kva.example/hooks')).toEqual([]);
  });

  it('another scheme breaks the pattern, and only the pattern is named', () => {
    expect(errorsOf('ftp://files.example/hooks')).toEqual([
      {
        param: 'url',
        code: 'invalid_value',
        message: 'url must be a string matching ^[Hh][Tt][Tt][Pp][Ss]?://',
      },
    ]);
  });

  it('a URL over 2048 characters is told its length, not the pattern', () => {
    const [error] = errorsOf(`https://x.example/${'a'.repeat(2048)}`);
    expect(error?.message).toBe('url must be a string of at most 2048 characters');
  });
});
