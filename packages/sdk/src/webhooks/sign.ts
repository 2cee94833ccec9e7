// webhooks.sign: signs a body as the service does, so merchants can unit-test their handlers.
import { computeSignature, importSigningKey, type WebhookSecret } from './signature.js';
import type { WebhookHeaders } from './types.js';

/** What `webhooks.sign` signs. */
export interface SignWebhookParams {
  /** The `webhook-id`: the event's id, such as `evt_123`. */
  id: string;
  /** When it is signed: a `Date` or whole Unix seconds. Default now. */
  timestamp?: Date | number;
  /** The exact body to send. */
  body: string | Uint8Array;
  /** The endpoint's secret, `whsec_<base64>`. */
  secret: WebhookSecret;
}

/**
 * Signs a webhook body per the Standard Webhooks specification and returns the three headers to
 * send with it. For tests of your webhook handler; the service signs real deliveries itself.
 *
 * @example
 * const body = JSON.stringify(event);
 * const headers = await webhooks.sign({ id: event.id, body, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
 * const response = await handler(new Request('http://test/webhooks', { method: 'POST', headers, body }));
 */
export async function signWebhook(params: SignWebhookParams): Promise<WebhookHeaders> {
  const { id, body, secret } = params;
  const at = params.timestamp ?? new Date();
  const seconds = typeof at === 'number' ? Math.floor(at) : Math.floor(at.getTime() / 1000);
  const timestamp = String(seconds);
  const key = await importSigningKey(secret);
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': await computeSignature(key, id, timestamp, body),
  };
}
