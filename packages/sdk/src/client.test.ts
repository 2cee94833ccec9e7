import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createClient } from './client.js';
import type { ClientOptions } from './options.js';
import { createFetchStub, problemResponse } from './test-support/fetch-stub.js';

const secretPart = 'Sup3rS3cretPart';
const apiKey = `sk_test_${secretPart}`;
const baseUrl = 'http://localhost:4010';

function expectNoSecret(text: string) {
  expect(text).not.toContain(secretPart);
  expect(text).not.toContain(apiKey);
}

describe('createClient', () => {
  it('exposes payments and refunds', () => {
    const client = createClient({ apiKey, baseUrl });
    expect(Object.keys(client.payments).sort()).toEqual(
      ['cancel', 'capture', 'create', 'list', 'listAll', 'retrieve'].sort(),
    );
    expect(Object.keys(client.refunds)).toEqual(['create']);
  });

  it.each([
    ['no options', undefined],
    ['a missing apiKey', { baseUrl }],
    ['a key that is not sk_', { apiKey: `pk_${secretPart}`, baseUrl }],
    ['a missing baseUrl', { apiKey }],
    ['a relative baseUrl', { apiKey, baseUrl: 'localhost' }],
    ['swapped options', { apiKey: baseUrl, baseUrl: apiKey }],
  ])('throws a TypeError for %s, without the key in the message', (_name, options) => {
    let thrown: unknown;
    try {
      createClient(options as unknown as ClientOptions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    const error = thrown as TypeError;
    expectNoSecret(error.message);
    expectNoSecret(String(error.stack));
    expectNoSecret(inspect(error));
  });

  it('shows only the redacted key in inspect, JSON and toString', () => {
    const client = createClient({ apiKey, baseUrl: `${baseUrl}/` });
    const shown = [
      inspect(client),
      inspect(client, { showHidden: true, depth: Number.POSITIVE_INFINITY }),
      JSON.stringify(client),
      String(client),
      `${client}`,
      client.toString(),
      inspect({ nested: client }),
    ];
    for (const text of shown) expectNoSecret(text);
    expect(inspect(client)).toBe(
      "PaymentServiceClient { apiKey: 'sk_test_…', baseUrl: 'http://localhost:4010' }",
    );
    expect(JSON.parse(JSON.stringify(client))).toEqual({ apiKey: 'sk_test_…', baseUrl });
    expect(String(client)).toContain('sk_test_…');
  });

  it('keeps the key out of the client’s own properties', () => {
    const client = createClient({ apiKey, baseUrl });
    const seen = new Set<unknown>();
    const visit = (value: unknown) => {
      if (
        value === null ||
        (typeof value !== 'object' && typeof value !== 'function') ||
        seen.has(value)
      ) {
        if (typeof value === 'string') expectNoSecret(value);
        return;
      }
      seen.add(value);
      for (const key of Reflect.ownKeys(value as object)) {
        if (typeof value === 'function' && ['caller', 'arguments'].includes(String(key))) continue;
        visit((value as Record<PropertyKey, unknown>)[key]);
      }
    };
    visit(client);
  });

  it('keeps the key out of API error messages and their inspection', async () => {
    const stub = createFetchStub(() =>
      problemResponse(401, 'invalid_api_key', 'The API key is not valid.'),
    );
    const client = createClient({ apiKey, baseUrl, fetch: stub.fetch });
    const error = await client.payments.retrieve('pay_1').catch((e) => e);
    expect(stub.requests[0]?.headers.get('Authorization')).toBe(`Bearer ${apiKey}`);
    expectNoSecret(error.message);
    expectNoSecret(inspect(error, { depth: Number.POSITIVE_INFINITY }));
    expectNoSecret(JSON.stringify(error));
  });

  it('keeps the key out of connection errors', async () => {
    const client = createClient({
      apiKey,
      baseUrl,
      maxRetries: 0,
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    const error = await client.payments
      .create({
        amount: 1,
        currency: 'RUB',
        payment_method: { type: 'token', token: 'tok_test_success' },
      })
      .catch((e) => e);
    expect(error.name).toBe('ConnectionError');
    expectNoSecret(error.message);
    expectNoSecret(inspect(error, { depth: Number.POSITIVE_INFINITY }));
  });
});
