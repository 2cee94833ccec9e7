// What a report keeps of one request and its response: enough to read the failure and reproduce it, with the key and secrets masked and the target's text cleaned.
import { maskSecrets as maskKitSecrets } from '@payment-service/sdk';
import { cleanTargetText } from '../untrusted-text.js';

/** The environment variable a reproduction reads the key from, so the key itself is never printed. */
export const KEY_VARIABLE = 'PAYMENT_SERVICE_API_KEY';

/** Response headers a report shows, when present. */
const SHOWN_HEADERS = [
  'content-type',
  'request-id',
  'idempotent-replayed',
  'retry-after',
  'allow',
  'www-authenticate',
  'location',
];

/** How much of one response header value a report keeps. */
const HEADER_VALUE_CHARS = 200;
/** How much of a problem's `code` a report keeps. */
const CODE_CHARS = 200;

/** How much of a response body a report keeps. */
const BODY_EXCERPT = 400;

/** One request and its response as a report shows them. */
export interface ExchangeRecord {
  method: string;
  /** The full URL of the request. */
  url: string;
  /** Request headers as sent, the API key replaced by `$PAYMENT_SERVICE_API_KEY`. */
  requestHeaders: Record<string, string>;
  /** The request body, when there was one (long runs of one character are kept compressed for the curl line). */
  requestBody?: string;
  status: number;
  /** The problem's `code`, when the body is a problem with one (cleaned: see `cleanTargetText`). */
  code?: string;
  /** The response headers a report shows, cleaned; `location` only by its origin (a redirect is never followed). */
  headers: Record<string, string>;
  /** The start of the response body, secrets masked and cleaned. */
  bodyExcerpt: string;
}

/**
 * Masks the given keys (even one not shaped like a key: a key typed in the wrong place on the
 * command line), then every secret key and webhook signing secret, with the SDK's masker (the
 * kit's one): `sk_test_…`, `whsec_…`.
 *
 * @example
 * maskSecrets('Bearer sk_test_abc12345 whsec_Zm9v', ['sk_test_abc12345']); // 'Bearer sk_test_… whsec_…'
 */
export function maskSecrets(text: string, keys: readonly string[] = []): string {
  let masked = text;
  for (const key of keys) {
    if (key.length >= 8)
      masked = masked.split(key).join(`${key.slice(0, key.indexOf('_', 3) + 1) || 'sk_'}…`);
  }
  return maskKitSecrets(masked);
}

/**
 * The origin a `Location` header points to, resolved against the request's URL, for a report.
 *
 * @example
 * locationOrigin('http://169.254.169.254/latest/meta-data', 'https://sandbox.example/v1/payments'); // 'http://169.254.169.254'
 */
export function locationOrigin(location: string, base: string): string {
  try {
    return new URL(location, base).origin;
  } catch {
    return `an unparsable URL (${cleanTargetText(location, 80)})`;
  }
}

/**
 * Builds the record of an exchange; `apiKey` is the run's key, which never appears in it, and
 * `parsed` the body already parsed (a problem's `code` is read from it).
 *
 * @example
 * const record = recordExchange(request, requestBody, response, text, apiKey);
 * record.requestHeaders.authorization; // 'Bearer $PAYMENT_SERVICE_API_KEY'
 */
export function recordExchange(
  request: { method: string; url: string; headers: Headers },
  requestBody: string | undefined,
  response: { status: number; headers: Headers },
  text: string,
  apiKey: string,
  parsed?: unknown,
): ExchangeRecord {
  const requestHeaders: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    requestHeaders[name] =
      name === 'authorization' && value === `Bearer ${apiKey}`
        ? `Bearer $${KEY_VARIABLE}`
        : maskSecrets(value, [apiKey]);
  });
  const headers: Record<string, string> = {};
  for (const name of SHOWN_HEADERS) {
    const value = response.headers.get(name);
    if (value === null) continue;
    headers[name] =
      name === 'location'
        ? `${locationOrigin(value, request.url)} (not followed)`
        : cleanTargetText(maskSecrets(value, [apiKey]), HEADER_VALUE_CHARS);
  }
  const record: ExchangeRecord = {
    method: request.method,
    url: request.url,
    requestHeaders,
    status: response.status,
    headers,
    bodyExcerpt: cleanTargetText(maskSecrets(text, [apiKey]), BODY_EXCERPT),
  };
  if (requestBody !== undefined) record.requestBody = maskSecrets(requestBody, [apiKey]);
  let body = parsed;
  if (body === undefined) {
    try {
      body = JSON.parse(text);
    } catch {}
  }
  const code = (body as { code?: unknown } | null | undefined)?.code;
  if (typeof code === 'string')
    record.code = cleanTargetText(maskSecrets(code, [apiKey]), CODE_CHARS);
  return record;
}
