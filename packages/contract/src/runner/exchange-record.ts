// What a report keeps of one request and its response: enough to read the failure and reproduce it, with the key and secrets masked.

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
];

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
  /** The problem's `code`, when the body is a problem with one. */
  code?: string;
  /** The response headers a report shows. */
  headers: Record<string, string>;
  /** The start of the response body, secrets masked. */
  bodyExcerpt: string;
}

/** Anything shaped like a secret key (the spec's `sk_test_`/`sk_live_` and key characters), known or not. */
const SECRET_KEY = /\bsk_(test|live)_[A-Za-z0-9_-]+/g;

/**
 * Replaces the given keys, anything shaped like a secret key (a key typed in the wrong place on
 * the command line is masked too) and any webhook signing secret in a text by masks.
 *
 * @example
 * maskSecrets('Bearer sk_test_abc123 whsec_Zm9v', ['sk_test_abc123']); // 'Bearer sk_test_*** whsec_***'
 */
export function maskSecrets(text: string, keys: readonly string[] = []): string {
  let masked = text;
  for (const key of keys) {
    if (key.length >= 8)
      masked = masked.split(key).join(`${key.slice(0, key.indexOf('_', 3) + 1) || 'sk_'}***`);
  }
  return masked
    .replace(SECRET_KEY, (_match, mode: string) => `sk_${mode}_***`)
    .replace(/whsec_[A-Za-z0-9+/=_-]+/g, 'whsec_***');
}

/**
 * Builds the record of an exchange; `apiKey` is the run's key, which never appears in it.
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
    if (value !== null) headers[name] = value;
  }
  const record: ExchangeRecord = {
    method: request.method,
    url: request.url,
    requestHeaders,
    status: response.status,
    headers,
    bodyExcerpt: maskSecrets(
      text.length > BODY_EXCERPT ? `${text.slice(0, BODY_EXCERPT)}…` : text,
      [apiKey],
    ),
  };
  if (requestBody !== undefined) record.requestBody = maskSecrets(requestBody, [apiKey]);
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    if (typeof code === 'string') record.code = code;
  } catch {}
  return record;
}
