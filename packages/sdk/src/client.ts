// createClient: validates the options and assembles the resources on one transport.
import { type ClientOptions, redactApiKey, validateClientOptions } from './options.js';
import { createPayments, type Payments } from './payments.js';
import { createRefunds, type Refunds } from './refunds.js';
import { createTransport } from './transport.js';
import { createWebhookEndpoints, type WebhookEndpoints } from './webhook-endpoints.js';

/** The key Node's `util.inspect` looks for; a registered symbol, so no `node:util` import. */
const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/** What the client shows of itself: the key's prefix only. */
interface RedactedClientOptions {
  apiKey: string;
  baseUrl: string;
}

/** A client of the payment service, as returned by {@link createClient}. */
export interface PaymentServiceClient {
  /** Create, retrieve, list, capture and cancel payments. */
  readonly payments: Payments;
  /** Refund payments. */
  readonly refunds: Refunds;
  /** Register, list and delete webhook endpoints (verify their deliveries with `webhooks`). */
  readonly webhookEndpoints: WebhookEndpoints;
  /** The options with the key redacted, e.g. `{ apiKey: 'sk_test_…', baseUrl }`. */
  toJSON(): RedactedClientOptions;
  /** A one-line description with the key redacted. */
  toString(): string;
}

/**
 * Creates a client of the payment service. Validates the options at once (throwing a
 * `TypeError` that never contains the key); the key is then held in a closure and shown
 * only as its prefix (`sk_test_…`) by `toString`, `JSON.stringify` and `util.inspect`.
 * Server-side only: the provider forbids giving a secret key to frontend code.
 *
 * @example
 * import { createClient } from '@payment-service/sdk';
 *
 * const client = createClient({ apiKey: process.env.PAYMENT_SERVICE_API_KEY!, baseUrl: 'http://localhost:4010' });
 * const payment = await client.payments.create({
 *   amount: 150000,
 *   currency: 'KZT',
 *   capture: true,
 *   payment_method: { type: 'token', token: 'tok_test_success' },
 * });
 */
export function createClient(options: ClientOptions): PaymentServiceClient {
  const validated = validateClientOptions(options);
  const transport = createTransport(validated);
  const redacted: RedactedClientOptions = {
    apiKey: redactApiKey(validated.apiKey),
    baseUrl: validated.baseUrl,
  };
  const describe = () =>
    `PaymentServiceClient { apiKey: '${redacted.apiKey}', baseUrl: '${redacted.baseUrl}' }`;
  const client = {
    payments: createPayments(transport),
    refunds: createRefunds(transport),
    webhookEndpoints: createWebhookEndpoints(transport),
  };
  Object.defineProperties(client, {
    toJSON: { value: () => ({ ...redacted }) },
    toString: { value: describe },
    [inspectSymbol]: { value: describe },
  });
  return Object.freeze(client) as PaymentServiceClient;
}
