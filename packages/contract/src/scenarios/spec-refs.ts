// The spec elements the scenarios' checks enforce, by JSON pointer (references into the spec, resolved by spec/elements.ts), and the table of the provider's operations.
import { type ElementRef, operationPointer } from '../spec/elements.js';

/** The spec elements scenario checks refer to. */
export const elements = {
  /** One value of the payment status enum: `SUCCEEDED` is documented, its siblings are ours. */
  status: (value: string): ElementRef => ({ pointer: '/components/schemas/PaymentStatus', value }),
  /** One error code of the ErrorCode enum. */
  errorCode: (code: string): ElementRef => ({
    pointer: '/components/schemas/ErrorCode',
    value: code,
  }),
  /** A named schema. */
  schema: (name: string): ElementRef => ({ pointer: `/components/schemas/${name}` }),
  /** A property of a named schema. */
  property: (schema: string, name: string): ElementRef => ({
    pointer: `/components/schemas/${schema}/properties/${name}`,
  }),
  header: (name: string): ElementRef => ({ pointer: `/components/headers/${name}` }),
  parameter: (name: string): ElementRef => ({ pointer: `/components/parameters/${name}` }),
  response: (name: string): ElementRef => ({ pointer: `/components/responses/${name}` }),
  operation: (path: string, method: string): ElementRef => ({
    pointer: operationPointer(path, method),
  }),
  webhook: (type: string): ElementRef => ({ pointer: `/webhooks/${type}/post` }),
};

/** Every operation of the provider's spec: its id, method and path template, and a valid body where it takes one. */
export const operations = [
  { operationId: 'createPayment', method: 'POST', path: '/v1/payments', body: true },
  { operationId: 'listPayments', method: 'GET', path: '/v1/payments', body: false },
  { operationId: 'retrievePayment', method: 'GET', path: '/v1/payments/{id}', body: false },
  { operationId: 'capturePayment', method: 'POST', path: '/v1/payments/{id}/capture', body: true },
  { operationId: 'cancelPayment', method: 'POST', path: '/v1/payments/{id}/cancel', body: true },
  { operationId: 'createRefund', method: 'POST', path: '/v1/payments/{id}/refunds', body: true },
  {
    operationId: 'createWebhookEndpoint',
    method: 'POST',
    path: '/v1/webhook_endpoints',
    body: true,
  },
  {
    operationId: 'listWebhookEndpoints',
    method: 'GET',
    path: '/v1/webhook_endpoints',
    body: false,
  },
  {
    operationId: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: '/v1/webhook_endpoints/{id}',
    body: false,
  },
] as const;

/** One operation of the table above. */
export type OperationRow = (typeof operations)[number];
