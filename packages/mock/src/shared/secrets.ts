// Masks anything that looks like a secret API key before text reaches a log line or a response.

const SECRET_KEY_PATTERN = /sk_[A-Za-z0-9]+_[A-Za-z0-9_-]+/g;

/**
 * Replaces every `sk_<env>_<secret>` in `text` with `sk_<env>_***`.
 *
 * @example
 * maskSecrets('Bearer sk_test_abc123'); // 'Bearer sk_test_***'
 */
export function maskSecrets(text: string): string {
  if (!text.includes('sk_')) return text;
  return text.replace(
    SECRET_KEY_PATTERN,
    (match) => `${match.slice(0, match.indexOf('_', 3))}_***`,
  );
}

/**
 * A URL fit for a log line: credentials and query values replaced with `***`, and any secret
 * key masked. Text that is not a URL is only key-masked.
 *
 * @example
 * maskUrl('https://user:pw@example.com/hook?token=abc'); // 'https://***:***@example.com/hook?token=***'
 */
export function maskUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return maskSecrets(text);
  }
  if (url.username !== '') url.username = '***';
  if (url.password !== '') url.password = '***';
  if (url.search !== '') {
    const masked = [...url.searchParams.keys()].map((name) => `${encodeURIComponent(name)}=***`);
    url.search = masked.join('&');
  }
  if (url.hash !== '') url.hash = '';
  return maskSecrets(url.href.replaceAll('%2A%2A%2A', '***'));
}

const SIGNING_SECRET_PATTERN = /whsec_[A-Za-z0-9+/=]+/g;

/**
 * A request or response body fit for the console: secret keys and webhook signing secrets
 * masked, and in JSON every string that is a URL masked as in log lines (credentials, query
 * values). Text that is not JSON gets the key and secret masking only.
 *
 * @example
 * maskBody('{"url":"https://u:p@example.com/h","secret":"whsec_abc"}');
 * // '{"url":"https://***:***@example.com/h","secret":"whsec_***"}'
 */
export function maskBody(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return maskText(text);
  }
  return JSON.stringify(maskStrings(value));
}

function maskText(text: string): string {
  return maskSecrets(text).replace(SIGNING_SECRET_PATTERN, 'whsec_***');
}

/** One string of a JSON body, masked: a URL as in log lines, any text for keys and secrets. */
function maskString(value: string): string {
  return /^https?:\/\//i.test(value) ? maskText(maskUrl(value)) : maskText(value);
}

function maskStrings(value: unknown): unknown {
  if (typeof value === 'string') return maskString(value);
  if (Array.isArray(value)) return value.map(maskStrings);
  if (typeof value === 'object' && value !== null) {
    // No prototype: a member named `__proto__` stays a member. Names are masked like values.
    const masked: Record<string, unknown> = Object.create(null);
    for (const [name, item] of Object.entries(value)) masked[maskString(name)] = maskStrings(item);
    return masked;
  }
  return value;
}
