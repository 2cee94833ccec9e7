// The Node-only entry of @payment-service/sdk (`@payment-service/sdk/node`): helpers built on node:http, kept out of the browser-safe main entry.
export {
  DEFAULT_MAX_KEPT_WEBHOOKS,
  DEFAULT_MAX_WEBHOOK_BODY_BYTES,
  type ReceivedWebhook,
  type RefusedWebhooks,
  startWebhookReceiver,
  type WebhookAnswer,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './node/webhook-receiver.js';
