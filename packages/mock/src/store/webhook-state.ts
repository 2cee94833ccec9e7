// What one sandbox key remembers about webhooks: endpoints, recent events, queued deliveries, the log.
import type { components, SandboxComponents } from '@payment-service/openapi';
import { MinHeap } from './min-heap.js';

/** An event type, such as `payment.succeeded`. */
export type EventType = components['schemas']['EventType'];
/** A webhook endpoint as listed (no secret). */
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
/** One logged delivery attempt, as the sandbox spec describes it. */
export type WebhookDelivery = SandboxComponents['schemas']['WebhookDelivery'];

/** An endpoint and its signing key. */
export interface EndpointRecord {
  endpoint: WebhookEndpoint;
  key: Uint8Array;
}

/** An event as sent: its id and type, and the exact body that is signed. */
export interface StoredEvent {
  id: string;
  type: EventType;
  body: string;
}

/** One attempt waiting to be made. */
export interface QueuedDelivery {
  event: StoredEvent;
  target: EndpointRecord;
  attempt: number;
  /** When it is due, on the key's sandbox clock (ms epoch). */
  dueAt: number;
  sequence: number;
}

/** Endpoints one key may register. */
export const MAX_ENDPOINTS_PER_KEY = 16;
/** Events one key keeps for redelivery; the oldest is forgotten first. */
export const MAX_EVENTS_PER_KEY = 1000;
/** Delivery attempts one key's log keeps; the oldest is dropped first. */
export const MAX_LOG_ENTRIES_PER_KEY = 500;
/** Attempts one key may have waiting; beyond it a new delivery is dropped (and logged). */
export const MAX_QUEUED_PER_KEY = 10_000;

/**
 * The webhook state of one key. Bounded: at most 16 endpoints, 1 000 events, 500 log entries
 * and 10 000 queued attempts (one per pending (event, endpoint) delivery).
 *
 * @example
 * const state = new AccountWebhooks();
 * state.rememberEvent({ id: 'evt_1', type: 'payment.succeeded', body: '{}' });
 */
export class AccountWebhooks {
  readonly endpoints = new Map<string, EndpointRecord>();
  readonly events = new Map<string, StoredEvent>();
  /** Oldest first. */
  readonly log: WebhookDelivery[] = [];
  readonly queue = new MinHeap<QueuedDelivery>(
    (a, b) => a.dueAt - b.dueAt || a.sequence - b.sequence,
  );
  /** Delivery attempts of this key in flight now. */
  inFlight = 0;
  private nextSequence = 0;

  rememberEvent(event: StoredEvent): void {
    this.events.set(event.id, event);
    if (this.events.size > MAX_EVENTS_PER_KEY) {
      this.events.delete(this.events.keys().next().value as string);
    }
  }

  /** Queues an attempt; false (queuing nothing) when the key already has too many waiting. */
  enqueue(delivery: Omit<QueuedDelivery, 'sequence'>): boolean {
    if (this.queue.size >= MAX_QUEUED_PER_KEY) return false;
    this.queue.push({ ...delivery, sequence: this.nextSequence++ });
    return true;
  }

  record(entry: WebhookDelivery): void {
    this.log.push(entry);
    if (this.log.length > MAX_LOG_ENTRIES_PER_KEY) this.log.shift();
  }
}

/**
 * Whether any endpoint listens to a key: one of its own, or the server's enabled default one.
 *
 * @example
 * hasSubscribers(account.webhooks, undefined); // false for a key with no endpoints
 */
export function hasSubscribers(
  state: AccountWebhooks | undefined,
  defaultEndpoint: EndpointRecord | undefined,
): boolean {
  return (
    defaultEndpoint?.endpoint.status === 'enabled' ||
    (state !== undefined && state.endpoints.size > 0)
  );
}

/**
 * The enabled endpoints (the key's own, then the default one) that receive events of `type`.
 *
 * @example
 * receiversOf(account.webhooks, undefined, 'payment.succeeded').length; // 0 with no endpoints
 */
export function receiversOf(
  state: AccountWebhooks | undefined,
  defaultEndpoint: EndpointRecord | undefined,
  type: EventType,
): EndpointRecord[] {
  const targets = state === undefined ? [] : [...state.endpoints.values()];
  if (defaultEndpoint !== undefined) targets.push(defaultEndpoint);
  return targets.filter(({ endpoint }) => {
    return (
      endpoint.status === 'enabled' && (endpoint.events === null || endpoint.events.includes(type))
    );
  });
}
