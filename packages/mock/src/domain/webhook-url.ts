// The rule for webhook URLs, parsed with the WHATWG URL parser: http(s), a valid port, no credentials.
import type { FieldError } from '../problems.js';

/**
 * Checks a webhook URL: it must parse as a WHATWG URL (so the scheme is case-insensitive and the
 * port is 0–65535), use `http` or `https`, and carry no credentials. Localhost is allowed:
 * receiving webhooks on your own machine is the point of the sandbox.
 *
 * @example
 * checkWebhookUrl('HTTP://127.0.0.1:3000/webhooks'); // undefined (valid)
 * checkWebhookUrl('http://user:pass@example.com/')?.message; // 'url must not contain credentials …'
 */
export function checkWebhookUrl(text: string, param = 'url'): FieldError | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      param,
      code: 'invalid_value',
      message: `${param} must be an absolute http:// or https:// URL with a valid host and port (0 to 65535)`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      param,
      code: 'invalid_value',
      message: `${param} must use http or https, not ${url.protocol.slice(0, -1)}`,
    };
  }
  if (url.username !== '' || url.password !== '') {
    return {
      param,
      code: 'invalid_value',
      message: `${param} must not contain credentials (user:password@); authenticate the receiver with the signing secret instead`,
    };
  }
  return undefined;
}
