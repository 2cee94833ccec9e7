// Checks the options given to createClient and never lets the API key into a message.
import type { Logger } from './logger.js';
import { defaultMaxResponseBytes } from './read-body.js';
import { defaultMaxRetries } from './retry.js';
import { isBrowserLike } from './runtime.js';

/** The default timeout of one attempt, in milliseconds. */
export const defaultTimeoutMs = 60_000;

/** Options of {@link createClient}. */
export interface ClientOptions {
  /**
   * A secret API key, `sk_…` (sandbox keys are `sk_test_…`). Documented (5). Server-side
   * code only: the provider forbids giving a secret key to frontend code.
   */
  apiKey: string;
  /**
   * The service's base address, without `/v1` (every path begins with `/v1`), e.g. the
   * local sandbox `http://localhost:4010`. Documented (4.1, 9).
   */
  baseUrl: string;
  /** The `fetch` to send requests with; defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /**
   * Retries after a failed attempt (connection errors, timeouts, 408, 409
   * `idempotency_key_in_use`, 429, 5xx), with exponential backoff and jitter, honouring
   * `Retry-After` up to 60 s. Default 2; 0 turns retries off. A request can override it.
   */
  maxRetries?: number;
  /** Milliseconds one attempt may take before it fails with a TimeoutError. Default 60 000. */
  timeout?: number;
  /**
   * The largest response body the client reads, in bytes counted after decoding (a gzip answer
   * counts what it expands to). A larger body is cancelled as soon as it passes the limit and the
   * call throws an InvalidResponseError (`invalid_response`). Default 4 MiB (4 194 304); a whole
   * number from 1 024 to 268 435 456 (256 MiB).
   */
  maxResponseBytes?: number;
  /** Called once per attempt with method, path, status, request id, attempt and elapsed ms. */
  logger?: Logger;
  /**
   * Lets the client run in a browser-like page. Dangerous: the provider forbids giving a
   * secret key to frontend code (5), and anyone who opens the page can read it.
   */
  dangerouslyAllowBrowser?: boolean;
}

/** The options after validation: a normalised base URL and a definite fetch. */
export interface ValidatedClientOptions {
  apiKey: string;
  baseUrl: string;
  fetch: typeof fetch;
  maxRetries: number;
  timeout: number;
  maxResponseBytes: number;
  logger: Logger | undefined;
}

/** Visible ASCII after `sk_`: anything else could not travel in a header. */
const apiKeyPattern = /^sk_[\x21-\x7e]+$/;

/**
 * Validates {@link ClientOptions}, throwing a `TypeError` that says what was expected.
 * The messages never contain the API key, nor any part of it.
 *
 * @example
 * const options = validateClientOptions({ apiKey: 'sk_test_12345678', baseUrl: 'http://localhost:4010/' });
 * options.baseUrl; // 'http://localhost:4010'
 */
export function validateClientOptions(options: ClientOptions): ValidatedClientOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      'createClient needs an options object: createClient({ apiKey: "sk_…", baseUrl: "https://…" })',
    );
  }
  const { apiKey, baseUrl, fetch: fetchOption, logger } = options;
  if (isBrowserLike() && options.dangerouslyAllowBrowser !== true) {
    throw new Error(
      'createClient refuses to run in a browser: a secret key (sk_…) must never reach frontend code, where anyone can read it. Call the payment service from your server. To run it here anyway (e.g. a local test page), pass dangerouslyAllowBrowser: true.',
    );
  }
  if (logger !== undefined && typeof logger !== 'function') {
    throw new TypeError(`logger must be a function; got ${typeof logger}`);
  }
  if (typeof apiKey !== 'string' || !apiKeyPattern.test(apiKey)) {
    const got = typeof apiKey === 'string' ? 'a string without that form' : typeof apiKey;
    throw new TypeError(
      `apiKey must be a secret key: a string starting with "sk_" (sandbox keys start with "sk_test_"), without spaces; got ${got}`,
    );
  }
  if (fetchOption !== undefined && typeof fetchOption !== 'function') {
    throw new TypeError(
      `fetch must be a function like the global fetch; got ${typeof fetchOption}`,
    );
  }
  const fetchFunction = fetchOption ?? globalThis.fetch;
  if (typeof fetchFunction !== 'function') {
    throw new TypeError('no global fetch in this runtime: pass one as the fetch option');
  }
  return {
    apiKey,
    baseUrl: normaliseBaseUrl(baseUrl),
    fetch: fetchFunction,
    maxRetries: checkMaxRetries(options.maxRetries) ?? defaultMaxRetries,
    timeout: checkTimeout(options.timeout) ?? defaultTimeoutMs,
    maxResponseBytes: checkMaxResponseBytes(options.maxResponseBytes),
    logger,
  };
}

/**
 * Checks a `maxRetries` option: a whole number from 0 to 10, or `undefined`.
 *
 * @example
 * checkMaxRetries(3); // 3
 */
export function checkMaxRetries(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 10) {
    throw new TypeError(
      `maxRetries must be a whole number from 0 to 10; got ${typeof value === 'number' ? value : typeof value}`,
    );
  }
  return value;
}

/**
 * Checks a `timeout` option: milliseconds, a positive finite number, or `undefined`.
 *
 * @example
 * checkTimeout(5_000); // 5000
 */
export function checkTimeout(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(
      `timeout must be a positive number of milliseconds; got ${typeof value === 'number' ? value : typeof value}`,
    );
  }
  return value;
}

/**
 * Checks a `maxResponseBytes` option: a whole number from 1 KiB to 256 MiB (past that, one body
 * would approach the longest string V8 can build); the default when `undefined`.
 *
 * @example
 * checkMaxResponseBytes(undefined); // 4194304
 */
export function checkMaxResponseBytes(value: unknown): number {
  if (value === undefined) return defaultMaxResponseBytes;
  if (!Number.isInteger(value) || (value as number) < 1024 || (value as number) > 2 ** 28) {
    throw new TypeError(
      `maxResponseBytes must be a whole number of bytes from 1024 to 268435456; got ${typeof value === 'number' ? value : typeof value}`,
    );
  }
  return value as number;
}

/**
 * Checks that `baseUrl` is an absolute http(s) URL and strips trailing slashes.
 *
 * @example
 * normaliseBaseUrl('https://sandbox.example.com/'); // 'https://sandbox.example.com'
 */
export function normaliseBaseUrl(baseUrl: unknown): string {
  const expected = 'baseUrl must be an absolute http(s) URL such as "http://localhost:4010"';
  if (typeof baseUrl !== 'string') throw new TypeError(`${expected}; got ${typeof baseUrl}`);
  if (baseUrl.includes('sk_')) {
    // Never echo something that may be a secret key (apiKey and baseUrl swapped, say).
    throw new TypeError(`${expected}; got a value containing "sk_": pass the API key as apiKey`);
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`${expected}; got "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`${expected}; got the protocol "${url.protocol}"`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError(`${expected}, without credentials in it`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(
      `${expected}, without a query or fragment; got "${url.origin}${url.pathname}…"`,
    );
  }
  const normalised = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  if (/\/v1$/.test(normalised)) {
    throw new TypeError(
      `baseUrl must not end with /v1: every path already begins with /v1; use "${normalised.slice(0, -3)}"`,
    );
  }
  return normalised;
}

/**
 * The form of an API key that is safe to show: only its documented prefix.
 *
 * @example
 * redactApiKey('sk_test_abc123'); // 'sk_test_…'
 */
export function redactApiKey(apiKey: string): string {
  return apiKey.startsWith('sk_test_') ? 'sk_test_…' : 'sk_…';
}
