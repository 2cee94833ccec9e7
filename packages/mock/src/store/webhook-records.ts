// What every store keeps about webhooks: endpoints with their signing keys, events as sent, attempts waiting.
import type { components, SandboxComponents } from '@payment-service/openapi';

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

/** What `WebhookStore.saveEndpoint` did: registered the endpoint, or stored nothing, and why. */
export type EndpointSaved = 'saved' | 'at the cap' | 'id held';
