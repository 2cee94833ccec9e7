// Who receives a key's events: its own enabled endpoints and the server's default one, by event type.
import type { WebhookStore } from '../store/store.js';
import type { EndpointRecord, EventType } from '../store/webhook-records.js';

/**
 * Whether any endpoint listens to a key: one of its own, or the server's enabled default one.
 *
 * @example
 * hasSubscribers(account.webhooks, undefined); // false for a key with no endpoints
 */
export function hasSubscribers(
  state: WebhookStore | undefined,
  defaultEndpoint: EndpointRecord | undefined,
): boolean {
  return (
    defaultEndpoint?.endpoint.status === 'enabled' ||
    (state !== undefined && state.endpointCount() > 0)
  );
}

/**
 * The enabled endpoints (the key's own, then the default one) that receive events of `type`.
 *
 * @example
 * (await receiversOf(account.webhooks, undefined, 'payment.succeeded')).length; // 0 with no endpoints
 */
export async function receiversOf(
  state: WebhookStore | undefined,
  defaultEndpoint: EndpointRecord | undefined,
  type: EventType,
): Promise<EndpointRecord[]> {
  const targets = state === undefined ? [] : await state.listEndpoints();
  if (defaultEndpoint !== undefined) targets.push(defaultEndpoint);
  return targets.filter(({ endpoint }) => {
    return (
      endpoint.status === 'enabled' && (endpoint.events === null || endpoint.events.includes(type))
    );
  });
}
