// The console inspector's snapshot of one key: recent requests, payments with timelines, events with deliveries.
import type { components, SandboxComponents } from '@payment-service/openapi';
import { extend } from '../shared/objects.js';
import { maskBody, maskEscapedSecrets, maskSecrets, maskUrl } from '../shared/secrets.js';
import { formatTimestamp } from '../shared/time.js';
import type { RecordedEntry } from '../store/request-records.js';
import type { AccountStore } from '../store/store.js';

type Schemas = SandboxComponents['schemas'];
type EventType = components['schemas']['EventType'];

/** Payments and events one snapshot shows, newest first. */
export const INSPECTED_PAYMENTS = 50;
export const INSPECTED_EVENTS = 100;

/**
 * The requests, payments and events of the key's account, newest first, secrets masked (in the
 * recorded requests' paths and bodies and in the payments).
 *
 * @example
 * const { requests, payments, events } = await inspectAccount(account);
 */
export async function inspectAccount(
  account: AccountStore | undefined,
): Promise<Pick<Schemas['Inspector'], 'requests' | 'payments' | 'events'>> {
  if (account === undefined) return { requests: [], payments: [], events: [] };
  const requests = (await account.recentRequests()).map(recordedRequest);
  const payments = await inspectedPayments(account);
  const events = await inspectedEvents(account);
  return { requests, payments, events };
}

/**
 * One recorded request as the inspector shows it (the sandbox spec's `RecordedRequest`), secrets masked.
 *
 * @example
 * recordedRequest(entry).object; // 'recorded_request'
 */
export function recordedRequest(entry: RecordedEntry): Schemas['RecordedRequest'] {
  return {
    object: 'recorded_request',
    request_id: entry.requestId,
    method: entry.method,
    path: maskEscapedSecrets(entry.path),
    status: entry.status,
    code: entry.code,
    latency_ms: entry.latencyMs,
    received_at: formatTimestamp(entry.receivedAt),
    request_body: entry.requestBody === null ? null : maskBody(entry.requestBody),
    response_body: entry.responseBody === null ? null : maskBody(entry.responseBody),
    truncated: entry.truncated,
  };
}

async function inspectedPayments(account: AccountStore): Promise<Schemas['InspectedPayment'][]> {
  const { data } = (await account.listPayments(INSPECTED_PAYMENTS)) ?? { data: [] };
  return data.map((stored) => {
    const steps = stored.timeline;
    return {
      payment: maskedPayment(stored.payment),
      timeline: steps.map((step) => extend(step, { at: formatTimestamp(step.at) })),
    };
  });
}

/**
 * A payment as the inspector shows it: a key or secret in its text (a description) masked, as in
 * the recorded bodies beside it. The API itself answers it as stored.
 */
function maskedPayment(
  payment: Schemas['InspectedPayment']['payment'],
): Schemas['InspectedPayment']['payment'] {
  const json = JSON.stringify(payment);
  const masked = maskSecrets(json);
  return masked === json ? payment : (JSON.parse(masked) as typeof payment);
}

/** What the inspector reads from an event's stored body. */
interface EventBody {
  created_at: string;
  data: { object: { id: string } };
}

async function inspectedEvents(account: AccountStore): Promise<Schemas['InspectedEvent'][]> {
  const state = account.webhooks;
  if (state === undefined) return [];
  const recent = (await state.listEvents()).slice(-INSPECTED_EVENTS).reverse();
  const deliveries = new Map<string, Schemas['WebhookDelivery'][]>();
  for (const entry of await state.deliveryLog()) {
    const list = deliveries.get(entry.event_id);
    if (list === undefined) deliveries.set(entry.event_id, [entry]);
    else list.push(entry);
  }
  return recent.map((event) => {
    const body = JSON.parse(event.body) as EventBody;
    const type: EventType = event.type;
    return {
      id: event.id,
      type,
      created_at: body.created_at,
      payment_id: body.data.object.id,
      deliveries: (deliveries.get(event.id) ?? []).map((entry) =>
        extend(entry, { url: maskUrl(entry.url) }),
      ),
    };
  });
}
