// A snapshot's webhook state: endpoints with their signing keys, events, the delivery log and queued attempts, checked against the spec.
import { openapiDocument } from '@payment-service/openapi';
import type { WebhookAddressPolicy } from '../domain/webhook-address.js';
import { checkWebhookUrl } from '../domain/webhook-url.js';
import type { QueuedData, WebhookData } from '../service/account-data.js';
import type { ApiValidators, SandboxValidators } from '../shared/validation.js';
import {
  MAX_ENDPOINTS_PER_KEY,
  MAX_EVENTS_PER_KEY,
  MAX_LOG_ENTRIES_PER_KEY,
  MAX_QUEUED_PER_KEY,
} from '../store/limits.js';
import type { EndpointRecord, StoredEvent, WebhookDelivery } from '../store/webhook-records.js';
import { MAX_ATTEMPTS } from '../webhooks/schedule.js';
import {
  arrayOf,
  hideSigningKey,
  iso,
  isRecord,
  type Problems,
  SIGNING_KEY,
  shown,
  type TimeReader,
  timeOf,
} from './snapshot-check.js';
import type { SandboxSnapshot } from './types.js';

type WebhookSnapshot = Pick<
  SandboxSnapshot,
  'webhook_endpoints' | 'events' | 'webhook_deliveries' | 'queued_deliveries'
>;

/** The event types: the spec's `EventType`. */
const EVENT_TYPES: readonly string[] = openapiDocument.components.schemas.EventType.enum;

/** What reading webhooks needs from the sandbox. */
export interface WebhookContext {
  validators: ApiValidators;
  sandboxValidators: SandboxValidators;
  policy: WebhookAddressPolicy;
  /** The server-wide endpoint's id (`we_default`), when there is one. */
  defaultEndpointId: string | undefined;
}

/**
 * A key's webhook state as a snapshot writes it. Each endpoint keeps its signing key in
 * `signing_key_base64`, shown as `[hidden]` by `util.inspect` (JSON keeps it).
 *
 * @example
 * snapshotWebhooks(readAccountData(state, apiKey).webhooks).webhook_endpoints; // []
 */
export function snapshotWebhooks(data: WebhookData): WebhookSnapshot {
  return {
    webhook_endpoints: data.endpoints.map(({ endpoint, key }) =>
      hideSigningKey({ endpoint, signing_key_base64: Buffer.from(key).toString('base64') }),
    ),
    events: data.events.map((event) => JSON.parse(event.body)),
    webhook_deliveries: data.log,
    queued_deliveries: data.queued.map(({ event, endpointId, attempt, dueAt }) => ({
      event_id: event.id,
      endpoint_id: endpointId,
      attempt,
      due_at: iso(dueAt),
    })),
  };
}

/**
 * Reads a snapshot's webhook state: endpoints (the spec's `WebhookEndpoint`, a URL the sandbox
 * may call, a signing key, unique ids), events (the spec's `Event`, unique ids), the log (the
 * sandbox spec's `WebhookDelivery`) and queued attempts (to a known endpoint, of a known event),
 * each within the store's caps. Problems go to `problems`; a signing key is never shown.
 *
 * @example
 * readWebhooks(snapshot, context, problems);
 */
export function readWebhooks(
  given: Record<string, unknown>,
  context: WebhookContext,
  problems: Problems,
): WebhookData {
  const endpoints = readEndpoints(given.webhook_endpoints, context, problems);
  const events = readEvents(given.events, context, problems);
  const log = arrayOf(
    given.webhook_deliveries,
    'webhook_deliveries',
    MAX_LOG_ENTRIES_PER_KEY,
    problems,
  ).flatMap((entry, index) => {
    const read = readDelivery(entry, `webhook_deliveries[${index}]`, context, problems);
    return read === undefined ? [] : [read];
  });
  const endpointIds = new Set(endpoints.map(({ endpoint }) => endpoint.id));
  if (context.defaultEndpointId !== undefined) endpointIds.add(context.defaultEndpointId);
  const byId = new Map(events.map((event) => [event.id, event]));
  const queued = arrayOf(
    given.queued_deliveries,
    'queued_deliveries',
    MAX_QUEUED_PER_KEY,
    problems,
  ).flatMap((entry, index): QueuedData[] => {
    const where = `queued_deliveries[${index}]`;
    if (!isRecord(entry)) {
      problems.add(where, `${where} must be an object { event_id, endpoint_id, attempt, due_at }`);
      return [];
    }
    const event = byId.get(String(entry.event_id));
    if (event === undefined) {
      problems.add(
        `${where}.event_id`,
        `${where}.event_id must be the id of one of the snapshot's events; got ${shown(entry.event_id)}`,
      );
    }
    if (!endpointIds.has(String(entry.endpoint_id))) {
      problems.add(
        `${where}.endpoint_id`,
        `${where}.endpoint_id must be the id of one of the snapshot's webhook_endpoints; got ${shown(entry.endpoint_id)}`,
      );
    }
    const { attempt, dueAt } = readAttempt(entry.attempt, entry.due_at, where, problems);
    if (event === undefined) return [];
    return [{ event, endpointId: String(entry.endpoint_id), attempt, dueAt }];
  });
  return { endpoints, events, log, queued };
}

/**
 * Reads one entry of the delivery log at `where`: the sandbox spec's `WebhookDelivery`, of a
 * known event type. Undefined (the problems in `problems`) when it is not one.
 *
 * @example
 * readDelivery(entry, 'webhook_delivery', context, problems);
 */
export function readDelivery(
  entry: unknown,
  where: string,
  context: Pick<WebhookContext, 'sandboxValidators'>,
  problems: Problems,
): WebhookDelivery | undefined {
  const checked = context.sandboxValidators.validator('WebhookDelivery')(entry);
  if (!problems.check(where, checked)) return undefined;
  if (!EVENT_TYPES.includes(checked.value.event_type)) {
    problems.add(
      `${where}.event_type`,
      `${where}.event_type must be one of ${EVENT_TYPES.join(', ')}; got ${shown(checked.value.event_type)}`,
    );
  }
  return checked.value;
}

/**
 * Reads an attempt's number (1 to `MAX_ATTEMPTS`) and due time (an ISO time within the clock's
 * range, or as `readTime` reads it) at `where`; problems go to `problems`.
 *
 * @example
 * readAttempt(2, '2026-01-01T00:00:00.000Z', 'queued_deliveries[0]', problems); // { attempt: 2, dueAt: 1767225600000 }
 */
export function readAttempt(
  attempt: unknown,
  dueAt: unknown,
  where: string,
  problems: Problems,
  readTime: TimeReader = timeOf,
): { attempt: number; dueAt: number } {
  if (
    typeof attempt !== 'number' ||
    !Number.isInteger(attempt) ||
    attempt < 1 ||
    attempt > MAX_ATTEMPTS
  ) {
    problems.add(
      `${where}.attempt`,
      `${where}.attempt must be an integer from 1 to ${MAX_ATTEMPTS}; got ${shown(attempt)}`,
    );
  }
  return { attempt: attempt as number, dueAt: readTime(dueAt, `${where}.due_at`, problems) };
}

function readEndpoints(
  given: unknown,
  context: WebhookContext,
  problems: Problems,
): EndpointRecord[] {
  const ids = new Set<string>();
  return arrayOf(given, 'webhook_endpoints', MAX_ENDPOINTS_PER_KEY, problems).flatMap(
    (entry, index) => {
      const where = `webhook_endpoints[${index}]`;
      const read = readEndpoint(entry, where, context, problems);
      if (read === undefined) return [];
      const id = read.endpoint.id;
      if (ids.has(id)) {
        problems.add(
          `${where}.endpoint.id`,
          `${where}.endpoint.id ${shown(id)} is already the id of another endpoint; ids must be unique`,
        );
      }
      ids.add(id);
      return read.key === undefined ? [] : [{ endpoint: read.endpoint, key: read.key }];
    },
  );
}

/**
 * Reads one endpoint `{ endpoint, signing_key_base64 }` at `where`: the spec's `WebhookEndpoint`,
 * a URL the sandbox may call (`policy`), a signing key of 1 to 256 bytes (never shown).
 * Undefined when its endpoint is not a `WebhookEndpoint`; `key` undefined when the key is wrong.
 *
 * @example
 * readEndpoint({ endpoint, signing_key_base64: 'a2V5' }, 'endpoint', context, problems);
 */
export function readEndpoint(
  entry: unknown,
  where: string,
  context: Pick<WebhookContext, 'validators' | 'policy'>,
  problems: Problems,
): { endpoint: EndpointRecord['endpoint']; key: Uint8Array | undefined } | undefined {
  if (!isRecord(entry)) {
    problems.add(where, `${where} must be an object { endpoint, signing_key_base64 }`);
    return undefined;
  }
  const key = entry.signing_key_base64;
  const bytes =
    typeof key === 'string' && SIGNING_KEY.test(key) ? Buffer.from(key, 'base64') : undefined;
  const keyHolds = bytes !== undefined && bytes.length > 0 && bytes.length <= 256;
  if (!keyHolds) {
    // Never shown: it is a signing key.
    problems.add(
      `${where}.signing_key_base64`,
      `${where}.signing_key_base64 must be the base64 of the endpoint's signing key (1 to 256 bytes)`,
    );
  }
  const checked = context.validators.validator('WebhookEndpoint')(entry.endpoint);
  if (!problems.check(`${where}.endpoint`, checked)) return undefined;
  const endpoint = checked.value;
  const urlError = checkWebhookUrl(endpoint.url, `${where}.endpoint.url`, context.policy);
  if (urlError !== undefined) {
    problems.add(urlError.param, `${where}.endpoint.url: ${urlError.message}`);
  }
  return { endpoint, key: keyHolds ? new Uint8Array(bytes) : undefined };
}

function readEvents(given: unknown, context: WebhookContext, problems: Problems): StoredEvent[] {
  const ids = new Set<string>();
  const max = MAX_EVENTS_PER_KEY + MAX_QUEUED_PER_KEY;
  return arrayOf(given, 'events', max, problems).flatMap((entry, index) => {
    const where = `events[${index}]`;
    const event = readEvent(entry, where, context, problems);
    if (event === undefined) return [];
    if (ids.has(event.id)) {
      problems.add(
        `${where}.id`,
        `${where}.id ${shown(event.id)} is already the id of another event; ids must be unique`,
      );
    }
    ids.add(event.id);
    return [event];
  });
}

/**
 * Reads one event at `where`: the spec's `Event`. Undefined (the problems in `problems`) when it
 * is not one; else the event as sent (its body the JSON of the value).
 *
 * @example
 * readEvent(JSON.parse(body), 'event.body', context, problems)?.id;
 */
export function readEvent(
  entry: unknown,
  where: string,
  context: Pick<WebhookContext, 'validators'>,
  problems: Problems,
): StoredEvent | undefined {
  const checked = context.validators.validator('Event')(entry);
  if (!problems.check(where, checked)) return undefined;
  const event = checked.value;
  return { id: event.id, type: event.type, body: JSON.stringify(event) };
}
