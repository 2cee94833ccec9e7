// The webhooks module of the SDK: verify deliveries, sign test deliveries, the event types and errors.
import { signWebhook } from './sign.js';
import { verifyWebhook } from './verify.js';

export {
  WebhookMissingHeaderError,
  WebhookPayloadError,
  WebhookSecretError,
  WebhookSignatureError,
  WebhookTimestampError,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './errors.js';
export { type SignWebhookParams, signWebhook } from './sign.js';
export { MIN_SECRET_BYTES, type WebhookSecret } from './signature.js';
export type {
  WebhookEvent,
  WebhookEventOf,
  WebhookEventType,
  WebhookHeaders,
  WebhookHeadersInput,
} from './types.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  MAX_SIGNATURE_HEADER_LENGTH,
  type VerifyWebhookOptions,
  verifyWebhook,
} from './verify.js';

/**
 * Webhook helpers: `verify` a delivery (raw body, headers, secret) and get its typed event;
 * `sign` a body to test your handler.
 *
 * @example
 * import { webhooks } from '@payment-service/sdk';
 * const event = await webhooks.verify(rawBody, request.headers, process.env.WEBHOOK_SECRET!);
 * switch (event.type) {
 *   case 'payment.succeeded': await fulfil(event.data.object.id); break;
 *   case 'payment.failed': await notifyCustomer(event.data.object.failure_message); break;
 * }
 */
export const webhooks = { verify: verifyWebhook, sign: signWebhook } as const;
