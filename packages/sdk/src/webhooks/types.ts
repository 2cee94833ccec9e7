// Webhook types, derived from the spec's `webhooks` section so they follow it exactly.
import type { webhooks } from '@payment-service/openapi';

/** An event type the service sends, such as `payment.succeeded`. */
export type WebhookEventType = keyof webhooks & string;

/** The event of one type, as its webhook's request body. */
export type WebhookEventOf<Type extends WebhookEventType> = webhooks[Type]['post'] extends {
  requestBody: { content: { 'application/json': infer Event } };
}
  ? Event
  : never;

/**
 * Any event the service sends: a union discriminated on `type`, so a `switch (event.type)`
 * narrows `event.data.object` and friends. Keep a `default` branch: new types may be added.
 */
export type WebhookEvent = { [Type in WebhookEventType]: WebhookEventOf<Type> }[WebhookEventType];

/** Request headers as fetch gives them, or as a plain record (Node's `IncomingHttpHeaders`). */
export type WebhookHeadersInput = Headers | Record<string, string | readonly string[] | undefined>;

/** The three Standard Webhooks headers of one delivery (a type, so it fits `HeadersInit`). */
export type WebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};
