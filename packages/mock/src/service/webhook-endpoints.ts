// The webhook_endpoints operations of one key: register (secret shown once), list, delete.
import type { components } from '@payment-service/openapi';
import type { DomainResult } from '../domain/payments.js';
import { PUBLIC_AND_LOOPBACK, type WebhookAddressPolicy } from '../domain/webhook-address.js';
import { checkWebhookUrl } from '../domain/webhook-url.js';
import { type RandomSource, systemRandom } from '../shared/ids.js';
import { extend } from '../shared/objects.js';
import { formatTimestamp } from '../shared/time.js';
import { MAX_ENDPOINTS_PER_KEY } from '../store/limits.js';
import { type AccountStore, StoreUnavailableError } from '../store/store.js';
import type { WebhookEndpoint } from '../store/webhook-records.js';
import { newSigningSecret } from '../webhooks/signing.js';

type Schemas = components['schemas'];

/**
 * Registers an endpoint for the key and answers 201 with its `whsec_` secret (shown only here).
 * A key holds at most 16 endpoints.
 *
 * @example
 * await createWebhookEndpoint(account, Date.now(), { url: 'http://127.0.0.1:3000/webhooks' });
 * // { ok: true, status: 201, body: { id: 'we_…', secret: 'whsec_…', … } }
 */
export async function createWebhookEndpoint(
  account: AccountStore,
  accountNow: number,
  request: Schemas['CreateWebhookEndpointRequest'],
  policy: WebhookAddressPolicy = PUBLIC_AND_LOOPBACK,
  random: RandomSource = systemRandom,
): Promise<DomainResult<Schemas['WebhookEndpointWithSecret']>> {
  const urlError = checkWebhookUrl(request.url, 'url', policy);
  if (urlError !== undefined) {
    return {
      ok: false,
      problem: {
        code: 'invalid_request',
        detail: `${urlError.message}.`,
        param: 'url',
        errors: [urlError],
      },
    };
  }
  // As last read: a registration at once may still take the last place (the store refuses it).
  if ((account.webhooks?.endpointCount() ?? 0) >= MAX_ENDPOINTS_PER_KEY) return limitReached();
  // A seeded sandbox draws again the ids its store holds (restarted on them, or beside another
  // instance with the same seed): the store refuses such an id, and the endpoint is made again,
  // its secret too (never one of another endpoint's). A key holds at most MAX_ENDPOINTS_PER_KEY.
  for (let draws = 1; draws <= MAX_ENDPOINTS_PER_KEY + 1; draws++) {
    const { secret, key } = newSigningSecret(random);
    const endpoint: WebhookEndpoint = {
      id: `we_${random.base62(24)}`,
      object: 'webhook_endpoint',
      url: request.url,
      events: request.events ?? null,
      status: 'enabled',
      created_at: formatTimestamp(accountNow),
    };
    const saved = await account.webhookState().saveEndpoint({ endpoint, key });
    if (saved === 'at the cap') return limitReached();
    if (saved === 'saved') return { ok: true, status: 201, body: extend(endpoint, { secret }) };
  }
  throw new StoreUnavailableError(
    `the store refused ${MAX_ENDPOINTS_PER_KEY + 1} new webhook endpoint ids in a row as already held`,
  );
}

/** The answer to a registration past the key's cap of endpoints. */
function limitReached(): DomainResult<never> {
  const message = `a key can register at most ${MAX_ENDPOINTS_PER_KEY} webhook endpoints; delete one first`;
  return { ok: false, problem: { code: 'webhook_endpoint_limit_reached', detail: message } };
}

/**
 * Lists the key's endpoints, oldest first, without secrets.
 *
 * @example
 * await listWebhookEndpoints(account); // { ok: true, status: 200, body: { object: 'list', data: […], has_more: false } }
 */
export async function listWebhookEndpoints(
  account: AccountStore | undefined,
): Promise<DomainResult<Schemas['WebhookEndpointList']>> {
  const data = ((await account?.webhooks?.listEndpoints()) ?? []).map(({ endpoint }) => endpoint);
  return { ok: true, status: 200, body: { object: 'list', data, has_more: false } };
}

/**
 * Deletes one of the key's endpoints; its queued attempts are dropped when they come due.
 *
 * @example
 * await deleteWebhookEndpoint(account, 'we_123'); // { ok: true, status: 200, body: { id: 'we_123', deleted: true, … } }
 */
export async function deleteWebhookEndpoint(
  account: AccountStore | undefined,
  id: string,
): Promise<DomainResult<Schemas['DeletedWebhookEndpoint']>> {
  if ((await account?.webhooks?.deleteEndpoint(id)) !== true) {
    return {
      ok: false,
      problem: {
        code: 'not_found',
        detail: `No webhook endpoint with id ${id} exists for this API key.`,
      },
    };
  }
  return { ok: true, status: 200, body: { id, object: 'webhook_endpoint', deleted: true } };
}
