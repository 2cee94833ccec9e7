// The rule for webhook URLs, parsed with the WHATWG URL parser: http(s), a valid port, no credentials, an allowed address.
import type { FieldError } from '../shared/problems.js';
import { LOOPBACK_REFUSED, refusedAddress, type WebhookAddressPolicy } from './webhook-address.js';

/**
 * Checks a webhook URL: it must parse as a WHATWG URL (so the scheme is case-insensitive, the
 * port is 0–65535 and an IPv4 address in any notation is read as dotted decimal), use `http` or
 * `https`, and carry no credentials. Localhost is allowed (receiving webhooks on your own machine
 * is the point of the sandbox) unless the policy refuses loopback. With a `policy`, an IP address the policy refuses (private,
 * link-local, metadata…) is refused here; a host name is checked on the addresses it resolves to,
 * when a webhook is sent.
 *
 * @example
 * checkWebhookUrl('HTTP://127.0.0.1:3000/webhooks'); // undefined (valid)
 * checkWebhookUrl('http://user:pass@example.com/')?.message; // 'url must not contain credentials …'
 * checkWebhookUrl('http://169.254.169.254/', 'url', PUBLIC_AND_LOOPBACK)?.message; // 'url must not point at 169.254.169.254, …'
 */
export function checkWebhookUrl(
  text: string,
  param = 'url',
  policy?: WebhookAddressPolicy,
): FieldError | undefined {
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
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (policy?.allowLoopback === false && /^localhost\.?$|\.localhost\.?$/.test(literal)) {
    return {
      param,
      code: 'invalid_value',
      message: `${param} must not point at ${literal}, ${LOOPBACK_REFUSED}: use a public address, or --webhook-url for a receiver on the sandbox's own machine`,
    };
  }
  if (policy !== undefined && /^[0-9.]+$|:/.test(literal)) {
    const refused = refusedAddress(literal, policy);
    if (refused !== undefined) {
      return {
        param,
        code: 'invalid_value',
        message: `${param} must not point at ${literal}, ${refused}: the sandbox sends webhooks to public addresses${policy.allowLoopback === false ? '' : ' and to this machine (loopback)'} only${policy.allowPrivate ? '' : '; start it with --allow-private-webhook-urls to reach private networks'}`,
      };
    }
  }
  return undefined;
}
