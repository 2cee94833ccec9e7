// Masking for the mock's log lines, console and inspector: keys and signing secrets by the SDK's masker (the kit's one), URLs and JSON bodies on top of it.
import { maskSecrets } from '@payment-service/sdk';

export { maskSecrets };

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

/**
 * A request or response body fit for the console: secret keys and webhook signing secrets
 * masked, and in JSON every string that is a URL masked as in log lines (credentials, query
 * values). Text that is not JSON gets the key and secret masking only.
 *
 * @example
 * maskBody('{"url":"https://u:p@example.com/h","secret":"whsec_abc"}');
 * // '{"url":"https://***:***@example.com/h","secret":"whsec_…"}'
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
  return maskSecrets(text);
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
