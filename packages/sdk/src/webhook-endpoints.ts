// The webhook endpoints resource: register, list and delete the URLs that receive signed events.
import type { components } from '@payment-service/openapi';
import { checkPathId } from './path-id.js';
import type { RequestOptions, Transport } from './transport.js';

type Schemas = components['schemas'];

/** A registered webhook endpoint (`we_…`), without its secret. Inferred: not shown by the provider. */
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
/** A newly registered endpoint with its `whsec_…` signing secret, shown only at creation. */
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
/** Every endpoint of the key. */
export type WebhookEndpointList = Schemas['WebhookEndpointList'];
/** The answer to a deletion. */
export type DeletedWebhookEndpoint = Schemas['DeletedWebhookEndpoint'];
/** What to register: the `url` and an optional `events` filter. */
export type CreateWebhookEndpointParams = Schemas['CreateWebhookEndpointRequest'];

/** The methods of `client.webhookEndpoints`. */
export interface WebhookEndpoints {
  /**
   * Registers a URL that receives the key's events (all of them, or those in `events`)
   * (`POST /v1/webhook_endpoints`). The answer's `secret` is shown only here: store it, and
   * pass it to `webhooks.verify`. Sends an `Idempotency-Key`.
   *
   * Provenance: inferred (webhook management is named by the provider but not shown).
   *
   * @example
   * const endpoint = await client.webhookEndpoints.create({
   *   url: 'https://shop.example/webhooks/payments',
   *   events: ['payment.succeeded', 'payment.failed'],
   * });
   * await saveSecret(endpoint.secret); // whsec_…
   */
  create(
    params: CreateWebhookEndpointParams,
    options?: RequestOptions,
  ): Promise<WebhookEndpointWithSecret>;

  /**
   * Lists the key's endpoints, oldest first, without their secrets (`GET /v1/webhook_endpoints`).
   *
   * Provenance: inferred.
   *
   * @example
   * const { data } = await client.webhookEndpoints.list();
   * data.filter((endpoint) => endpoint.status === 'disabled'); // answered 410 Gone
   */
  list(options?: RequestOptions): Promise<WebhookEndpointList>;

  /**
   * Deletes an endpoint (`DELETE /v1/webhook_endpoints/{id}`); an unknown id is a NotFoundError.
   *
   * Provenance: inferred.
   *
   * @example
   * await client.webhookEndpoints.delete('we_123'); // { id: 'we_123', deleted: true, … }
   */
  delete(id: string, options?: RequestOptions): Promise<DeletedWebhookEndpoint>;
}

/**
 * Builds `client.webhookEndpoints` on a transport.
 *
 * @example
 * const webhookEndpoints = createWebhookEndpoints(createTransport(validateClientOptions(options)));
 */
export function createWebhookEndpoints(transport: Transport): WebhookEndpoints {
  const { api, request } = transport;
  return {
    create: (params, options) =>
      request('POST', options, (init) =>
        api.POST('/v1/webhook_endpoints', { body: params, ...init }),
      ),
    list: (options) =>
      request('GET', options, (init) => api.GET('/v1/webhook_endpoints', { ...init })),
    delete: async (id, options) => {
      checkPathId(id, 'a webhook endpoint id', 'we_…');
      return request('DELETE', options, (init) =>
        api.DELETE('/v1/webhook_endpoints/{id}', { params: { path: { id } }, ...init }),
      );
    },
  };
}
