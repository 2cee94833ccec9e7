// Masking for the mock's log lines, console and inspector: keys and signing secrets by the SDK's masker (the kit's one: plain, glued, percent-encoded, JSON-escaped, Basic), URLs and JSON bodies on top of it.
import { maskSecrets } from '@payment-service/sdk';

export { maskSecrets };

/**
 * Text fit for a log line, the inspector or an answer (a request path, a problem's detail that
 * echoes one): keys and signing secrets masked, also when a client wrote them with
 * percent-escapes (`sk%5Ftest%5F…`, escaped twice or every character) or glued to a word. Only
 * the secrets are replaced; the rest stays as sent (no escape is undone). The SDK's masker.
 *
 * @example
 * maskEscapedSecrets('/v1/payments/sk%5Ftest%5Fabcdefgh'); // '/v1/payments/sk_test_…'
 * maskEscapedSecrets('/v1/payments/pay%20x'); // '/v1/payments/pay%20x'
 */
export const maskEscapedSecrets: (text: string) => string = maskSecrets;

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
 * values). Text that is not whole JSON (cut at 4 096 characters, or not JSON) is masked the same
 * way, string literal by string literal, and every URL outside them.
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
    return maskNotJson(text);
  }
  return JSON.stringify(maskStrings(value));
}

function maskText(text: string): string {
  return maskSecrets(text);
}

/**
 * Text that is not whole JSON (a body cut at the inspector's 4 096 characters, or not JSON at
 * all), masked as a JSON body is: each string literal in it masked as one string of a JSON body
 * (a literal cut by the end of the text too), and outside them every URL as in log lines and
 * every key or secret. A literal with nothing to mask stays as written.
 */
function maskNotJson(text: string): string {
  if (!text.includes('"') && !/https?:/i.test(text)) return maskText(text);
  let masked = '';
  let from = 0;
  for (const literal of text.matchAll(STRING_LITERAL)) {
    masked += maskLoose(text.slice(from, literal.index)) + maskLiteral(literal);
    from = literal.index + literal[0].length;
  }
  return masked + maskLoose(text.slice(from));
}

/** A JSON string literal: its characters, then its closing quote or the end of the text. */
const STRING_LITERAL = /"((?:[^"\\]|\\[\s\S])*)(?:(")|\\?$)/g;

/** A URL outside string literals: up to whitespace, a quote, a bracket or a backslash. */
const LOOSE_URL = /https?:\/\/[^\s"'`<>\\]*/gi;

/** One string literal of text that is not whole JSON, masked as the string it stands for. */
function maskLiteral(literal: RegExpMatchArray): string {
  const whole = literal[2] === '"';
  const value = decodeLiteral(literal[1] ?? '', whole);
  const masked = whole ? maskString(value) : maskCutString(value);
  if (masked === value) return literal[0];
  const rendered = JSON.stringify(masked);
  return whole ? rendered : rendered.slice(0, -1);
}

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * The string a literal's characters stand for, read leniently (a cut `\u` escape dropped, an
 * unknown escape read as its character, raw control characters kept): never fails, so no escaped
 * key passes unread.
 */
function decodeLiteral(characters: string, whole: boolean): string {
  const text = whole ? characters : characters.replace(/\\u[0-9a-fA-F]{0,3}$/, '');
  return text.replace(/\\(u[0-9a-fA-F]{4}|[\s\S])/g, (_escape, code: string) =>
    code.length === 5
      ? String.fromCharCode(Number.parseInt(code.slice(1), 16))
      : (ESCAPES[code] ?? code),
  );
}

/**
 * A string cut by the end of the text, masked as a whole one, but a URL's credentials, query or
 * port as `scheme://***` (what is left of them may parse as something else: `user:pa` as a host
 * and port).
 */
function maskCutString(value: string): string {
  if (!/^https?:\/\//i.test(value)) return maskText(value);
  const schemeEnd = value.indexOf('//') + 2;
  if (/[@?#:]/.test(value.slice(schemeEnd)) || !URL.canParse(value)) {
    return `${value.slice(0, schemeEnd)}***`;
  }
  return maskString(value);
}

/** Text outside string literals: URLs as in log lines (one that does not parse as `scheme://***`), keys and secrets. */
function maskLoose(text: string): string {
  return maskText(
    text.replace(LOOSE_URL, (url) =>
      URL.canParse(url) ? maskUrl(url) : `${url.slice(0, url.indexOf('//') + 2)}***`,
    ),
  );
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
