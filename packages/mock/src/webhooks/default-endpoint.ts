// The server-wide default webhook endpoint (the CLI's --webhook-url): every key's events go to it.

import { checkWebhookUrl } from '../domain/webhook-url.js';
import { formatTimestamp } from '../shared/time.js';
import type { EndpointRecord } from '../store/webhook-records.js';
import { newSigningSecret, parseSigningSecret } from './signing.js';

/** The id of the default endpoint, as shown in the delivery log. */
export const DEFAULT_ENDPOINT_ID = 'we_default';

/**
 * A fresh `whsec_<base64>` signing secret, to pass as `webhookSecret` with `webhookUrl`.
 *
 * @example
 * const secret = generateWebhookSecret(); // 'whsec_…'
 * createMockServer({ webhookUrl: 'http://127.0.0.1:3000/webhooks', webhookSecret: secret });
 */
export function generateWebhookSecret(): string {
  return newSigningSecret().secret;
}

/**
 * Builds the default endpoint from the server options; throws a TypeError (without the secret)
 * when the URL or the secret is not valid.
 *
 * @example
 * createDefaultEndpoint('http://127.0.0.1:3000/webhooks', generateWebhookSecret(), Date.now());
 */
export function createDefaultEndpoint(
  url: string,
  secret: string | undefined,
  now: number,
): EndpointRecord {
  const urlError = checkWebhookUrl(url, 'webhookUrl');
  if (urlError !== undefined) throw new TypeError(urlError.message);
  if (secret === undefined) {
    throw new TypeError('webhookSecret is required with webhookUrl (see generateWebhookSecret())');
  }
  const parsed = parseSigningSecret(secret);
  if (parsed === undefined) {
    throw new TypeError('webhookSecret must be whsec_ followed by the base64 of at least 16 bytes');
  }
  return {
    endpoint: {
      id: DEFAULT_ENDPOINT_ID,
      object: 'webhook_endpoint',
      url,
      events: null,
      status: 'enabled',
      created_at: formatTimestamp(now),
    },
    key: parsed.key,
  };
}
