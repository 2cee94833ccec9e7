import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ClientOptions,
  normaliseBaseUrl,
  redactApiKey,
  validateClientOptions,
} from './options.js';

const secret = 'sk_test_S3cr3tK3yValue';
const baseUrl = 'http://localhost:4010';

/** Runs `action`, expects a TypeError, and returns its message. */
function messageOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('expected a TypeError');
}

describe('validateClientOptions', () => {
  it('accepts an sk_ key and normalises the base URL', () => {
    const fetch = async () => new Response();
    const options = validateClientOptions({ apiKey: secret, baseUrl: `${baseUrl}/`, fetch });
    expect(options).toEqual({
      apiKey: secret,
      baseUrl,
      fetch,
      maxRetries: 2,
      timeout: 60_000,
      maxResponseBytes: 4 * 1024 * 1024,
      logger: undefined,
    });
  });

  it('checks maxResponseBytes: a whole number of bytes from 1 KiB to 256 MiB', () => {
    const limit = (maxResponseBytes: unknown) =>
      validateClientOptions({ apiKey: secret, baseUrl, maxResponseBytes } as never)
        .maxResponseBytes;
    expect(limit(1024)).toBe(1024);
    expect(limit(2 ** 28)).toBe(2 ** 28);
    for (const bad of [0, 1023, 2 ** 28 + 1, 1.5, Number.NaN, Infinity, '4096', null]) {
      expect(() => limit(bad)).toThrow(
        /^maxResponseBytes must be a whole number of bytes from 1024 to 268435456; got /,
      );
    }
  });

  it('defaults to the global fetch', () => {
    expect(validateClientOptions({ apiKey: secret, baseUrl }).fetch).toBe(globalThis.fetch);
  });

  it('requires an options object', () => {
    const message = messageOf(() => validateClientOptions(undefined as unknown as ClientOptions));
    expect(message).toMatch(/options object/);
  });

  it.each([
    ['a missing key', undefined, /got undefined/],
    ['a number', 42, /got number/],
    ['a publishable-looking key', 'pk_test_S3cr3tK3yValue', /starting with "sk_"/],
    ['a key without the prefix', 'S3cr3tK3yValue', /starting with "sk_"/],
    ['a bare prefix', 'sk_', /starting with "sk_"/],
    ['a key with a space', 'sk_test_S3cr3t K3yValue', /without spaces/],
    ['a key with a newline', 'sk_test_S3cr3tK3yValue\n', /without spaces/],
  ])('rejects %s without echoing it', (_name, apiKey, expected) => {
    const message = messageOf(() =>
      validateClientOptions({ apiKey, baseUrl } as unknown as ClientOptions),
    );
    expect(message).toMatch(expected);
    expect(message).toMatch(/sk_test_/);
    expect(message).not.toContain('S3cr3t');
    expect(message).not.toContain('K3yValue');
  });

  it('rejects a fetch that is not a function', () => {
    const message = messageOf(() =>
      validateClientOptions({ apiKey: secret, baseUrl, fetch: 'no' } as unknown as ClientOptions),
    );
    expect(message).toMatch(/fetch must be a function/);
  });
});

describe('normaliseBaseUrl', () => {
  it.each([
    ['http://localhost:4010', 'http://localhost:4010'],
    ['http://localhost:4010/', 'http://localhost:4010'],
    ['https://sandbox.example.com//', 'https://sandbox.example.com'],
    ['https://example.com/payments-api/', 'https://example.com/payments-api'],
  ])('normalises %s', (input, expected) => {
    expect(normaliseBaseUrl(input)).toBe(expected);
  });

  it.each([
    ['a missing URL', undefined, /absolute http\(s\) URL.*; got undefined/],
    ['a relative URL', '/api', /absolute http\(s\) URL.*; got "\/api"/],
    ['a host without protocol', 'localhost:4010', /protocol "localhost:"/],
    ['another protocol', 'ftp://example.com', /protocol "ftp:"/],
    ['credentials', 'https://user:pass@example.com', /without credentials/],
    ['a query', 'https://example.com/?a=1', /without a query or fragment/],
    [
      'a path ending in /v1',
      'https://example.com/v1/',
      /must not end with \/v1.*"https:\/\/example.com"/,
    ],
  ])('rejects %s', (_name, input, expected) => {
    expect(messageOf(() => normaliseBaseUrl(input))).toMatch(expected);
  });

  it('never echoes a value that looks like a key (apiKey and baseUrl swapped)', () => {
    const message = messageOf(() => normaliseBaseUrl(secret));
    expect(message).toMatch(/pass the API key as apiKey/);
    expect(message).not.toContain('S3cr3t');
  });
});

describe('redactApiKey', () => {
  it('keeps only the documented prefix', () => {
    expect(redactApiKey(secret)).toBe('sk_test_…');
    expect(redactApiKey('sk_live_S3cr3t')).toBe('sk_…');
  });
});

describe('validateClientOptions in a browser-like page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('refuses to run, without the key in the message, unless dangerouslyAllowBrowser is true', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    const options = { apiKey: secret, baseUrl, fetch: async () => new Response() };
    expect(() => validateClientOptions(options)).toThrow(/refuses to run in a browser/);
    try {
      validateClientOptions(options);
    } catch (error) {
      expect(String(error)).not.toContain(secret);
      expect(String(error)).toContain('dangerouslyAllowBrowser: true');
    }
    expect(() =>
      validateClientOptions({ ...options, dangerouslyAllowBrowser: 'yes' } as never),
    ).toThrow();
    expect(validateClientOptions({ ...options, dangerouslyAllowBrowser: true }).apiKey).toBe(
      secret,
    );
  });
});

describe('retry and timeout options', () => {
  it.each([-1, 1.5, 11, '2', Number.NaN])('rejects maxRetries %s', (maxRetries) => {
    expect(() => validateClientOptions({ apiKey: secret, baseUrl, maxRetries } as never)).toThrow(
      /maxRetries must be a whole number from 0 to 10/,
    );
  });
  it.each([0, -5, Number.POSITIVE_INFINITY, '100'])('rejects timeout %s', (timeout) => {
    expect(() => validateClientOptions({ apiKey: secret, baseUrl, timeout } as never)).toThrow(
      /timeout must be a positive number/,
    );
  });
  it('rejects a logger that is not a function', () => {
    expect(() => validateClientOptions({ apiKey: secret, baseUrl, logger: {} } as never)).toThrow(
      /logger must be a function/,
    );
  });
});
