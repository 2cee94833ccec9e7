import type { components } from '@payment-service/openapi';
import { describe, expect, it } from 'vitest';
import { openapiRequestValidators } from './generated/request-validators.js';
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
