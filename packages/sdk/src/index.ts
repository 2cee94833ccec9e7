// The public entry point of @payment-service/sdk.
export { createClient, type PaymentServiceClient } from './client.js';
export { errorFromResponse } from './error-from-response.js';
export {
  AbortedError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  IdempotencyError,
  InvalidRequestError,
  InvalidResponseError,
  NotFoundError,
  PaymentServiceError,
  type PaymentServiceErrorInit,
  RateLimitError,
  type RetryableErrorInit,
  ServerError,
  TimeoutError,
} from './errors.js';
export type { Logger, RequestLogEntry } from './logger.js';
export type { ClientOptions } from './options.js';
export type { Payments } from './payments.js';
export type { Refunds } from './refunds.js';
export {
  findSecrets,
  maskSecrets,
  type SecretSpan,
  secretKind,
  secretMask,
  secretPattern,
} from './secrets.js';
export type { RequestOptions } from './transport.js';
export type {
  CapturePaymentParams,
  CreatePaymentParams,
  CreateRefundParams,
  FieldError,
  ListAllPaymentsParams,
  ListPaymentsParams,
  Payment,
  PaymentList,
  PaymentStatus,
  Problem,
  Refund,
} from './types.js';
export type {
  CreateWebhookEndpointParams,
  DeletedWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpoints,
  WebhookEndpointWithSecret,
} from './webhook-endpoints.js';
export * from './webhooks/index.js';
