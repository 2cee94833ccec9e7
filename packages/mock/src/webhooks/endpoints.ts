// The webhook_endpoints operations of one key: register (secret shown once), list, delete.
import { randomBase62 } from '../ids.js';
import type { ProblemInit } from '../problems.js';
import type { Account } from '../store/account.js';
import { formatTimestamp } from '../time.js';
import type { WebhookDispatcher } from './dispatcher.js';
import { newSigningSecret } from './signing.js';
import { type EventType, MAX_ENDPOINTS_PER_KEY, type WebhookEndpoint } from './state.js';

/** An answer of an endpoint operation: a status and a body, or a problem. */
export type EndpointResult =
  | { ok: true; status: number; body: unknown }
  | { ok: false; problem: ProblemInit };

/** A validated registration request. */
export interface CreateWebhookEndpointRequest {
  url: string;
  events?: EventType[];
}

/**
 * Registers an endpoint for the key and answers 201 with its `whsec_` secret (shown only here).
 * A key holds at most 16 endpoints.
 *
 * @example
 * createWebhookEndpoint(dispatcher, account, Date.now(), { url: 'http://127.0.0.1:3000/webhooks' });
 * // { ok: true, status: 201, body: { id: 'we_…', secret: 'whsec_…', … } }
 */
export function createWebhookEndpoint(
  dispatcher: WebhookDispatcher,
  account: Account,
  accountNow: number,
  request: CreateWebhookEndpointRequest,
): EndpointResult {
  const state = dispatcher.stateOf(account);
  if (state.endpoints.size >= MAX_ENDPOINTS_PER_KEY) {
    const message = `a key can register at most ${MAX_ENDPOINTS_PER_KEY} webhook endpoints; delete one first`;
    return {
      ok: false,
      problem: {
        code: 'invalid_request',
        detail: message,
        param: 'url',
        errors: [{ param: 'url', code: 'limit', message }],
      },
    };
  }
  const { secret, key } = newSigningSecret();
  const endpoint: WebhookEndpoint = {
    id: `we_${randomBase62(24)}`,
    object: 'webhook_endpoint',
    url: request.url,
    events: request.events ?? null,
    status: 'enabled',
    created_at: formatTimestamp(accountNow),
  };
  state.endpoints.set(endpoint.id, { endpoint, key });
  return { ok: true, status: 201, body: { ...endpoint, secret } };
}

/**
 * Lists the key's endpoints, oldest first, without secrets.
 *
 * @example
 * listWebhookEndpoints(account); // { ok: true, status: 200, body: { object: 'list', data: […], has_more: false } }
 */
export function listWebhookEndpoints(account: Account | undefined): EndpointResult {
  const data = [...(account?.webhooks?.endpoints.values() ?? [])].map(({ endpoint }) => endpoint);
  return { ok: true, status: 200, body: { object: 'list', data, has_more: false } };
}

/**
 * Deletes one of the key's endpoints; its queued attempts are dropped when they come due.
 *
 * @example
 * deleteWebhookEndpoint(account, 'we_123'); // { ok: true, status: 200, body: { id: 'we_123', deleted: true, … } }
 */
export function deleteWebhookEndpoint(account: Account | undefined, id: string): EndpointResult {
  if (account?.webhooks?.endpoints.delete(id) !== true) {
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
