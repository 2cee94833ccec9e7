// What one sandbox key remembers about webhooks: endpoints, recent events, queued deliveries, the log.
import { extend } from '../../shared/objects.js';
import { deliveryBytes, eventBytes, QUEUED_BYTES } from '../byte-sizes.js';
import {
  MAX_ENDPOINTS_PER_KEY,
  MAX_EVENTS_PER_KEY,
  MAX_LOG_ENTRIES_PER_KEY,
  MAX_QUEUED_PER_KEY,
} from '../limits.js';
import type {
  EndpointRecord,
  EndpointSaved,
  QueuedDelivery,
  StoredEvent,
  WebhookDelivery,
} from '../webhook-records.js';
import type { WebhookChanges } from './changes.js';
import { MinHeap } from './min-heap.js';

/** Where a key's webhook state reports what it holds, and how much it may hold. */
export interface WebhookBudget {
  /** Bytes this state may hold; beyond it the oldest events and log entries go first. */
  maxBytes: number;
  /** Told of every change of the bytes held (added positive, freed negative). */
  onBytes(delta: number): void;
}

/**
 * The webhook state of one key, answered at once (the seam's `WebhookStore` is its handle:
 * memory-seam.ts). Bounded in count (16 endpoints, 1 000 events, 500 log entries,
 * 10 000 queued attempts) and in bytes (`budget.maxBytes`: the oldest events and log entries
 * are forgotten first; a new attempt is refused while the queue alone fills the budget).
 *
 * @example
 * const state = new AccountWebhooks();
 * state.rememberEvent({ id: 'evt_1', type: 'payment.succeeded', body: '{}' });
 */
export class AccountWebhooks {
  /** Bytes held: events, log entries and queued attempts. */
  bytes = 0;
  readonly endpoints = new Map<string, EndpointRecord>();
  readonly events = new Map<string, StoredEvent>();
  /** Oldest first. */
  readonly log: WebhookDelivery[] = [];
  readonly queue = new MinHeap<QueuedDelivery>(
    (a, b) => a.dueAt - b.dueAt || a.sequence - b.sequence,
  );
  /** Attempts taken off the queue and not yet finished (kept only while changes are told). */
  readonly taken = new Set<QueuedDelivery>();
  private nextSequence = 0;
  private queuedBytes = 0;

  constructor(
    private readonly budget: WebhookBudget = { maxBytes: Number.POSITIVE_INFINITY, onBytes() {} },
    /** Told of each change, for a store that keeps them (absent: nobody is). */
    private readonly changes: WebhookChanges | undefined = undefined,
  ) {}

  endpointCount(): number {
    return this.endpoints.size;
  }

  endpointById(id: string): EndpointRecord | undefined {
    return this.endpoints.get(id);
  }

  listEndpoints(): EndpointRecord[] {
    return [...this.endpoints.values()];
  }

  eventById(id: string): StoredEvent | undefined {
    return this.events.get(id);
  }

  listEvents(): StoredEvent[] {
    return [...this.events.values()];
  }

  deliveryLog(): readonly WebhookDelivery[] {
    return this.log;
  }

  nextAttemptAt(): number | undefined {
    return this.queue.peek()?.dueAt;
  }

  /** Takes the earliest attempt off the queue if it is due at `accountNow`. */
  claimDueAttempt(accountNow: number): QueuedDelivery | undefined {
    const next = this.queue.peek();
    if (next === undefined || next.dueAt > accountNow) return undefined;
    return this.takeQueued();
  }

  queuedAttempts(): QueuedDelivery[] {
    return this.queue.items();
  }

  /**
   * Registers a new endpoint: nothing stored at the key's cap, or when the key already has an
   * endpoint with this id.
   */
  saveEndpoint(record: EndpointRecord): EndpointSaved {
    if (this.endpoints.has(record.endpoint.id)) return 'id held';
    return this.putEndpoint(record) ? 'saved' : 'at the cap';
  }

  /**
   * Stores an endpoint, new (false at the key's cap) or held (its new status; one read back
   * from the journal).
   */
  putEndpoint(record: EndpointRecord): boolean {
    const { id } = record.endpoint;
    if (!this.endpoints.has(id) && this.endpoints.size >= MAX_ENDPOINTS_PER_KEY) return false;
    this.endpoints.set(id, record);
    this.changes?.endpointSaved(record);
    return true;
  }

  /** Deletes an endpoint; false when the key has none with this id. */
  deleteEndpoint(id: string): boolean {
    if (!this.endpoints.delete(id)) return false;
    this.changes?.endpointDeleted(id);
    return true;
  }

  /** Stops sending to an endpoint (it answered 410 Gone). */
  disableEndpoint(record: EndpointRecord): void {
    record.endpoint.status = 'disabled';
    if (this.endpoints.get(record.endpoint.id) === record) this.putEndpoint(record);
  }

  /**
   * Marks a queued attempt as made (taken, sent or dropped), so a restart does not send it again,
   * and queues its retry when given; both are told before it returns (one journal step). True
   * when the retry was queued.
   */
  finishAttempt(delivery: QueuedDelivery, retry?: Omit<QueuedDelivery, 'sequence'>): boolean {
    this.taken.delete(delivery);
    this.changes?.attemptFinished(delivery);
    return retry === undefined ? false : this.enqueue(retry);
  }

  /** Puts back an attempt with its own sequence (one read back from where it was kept). */
  restoreQueued(delivery: QueuedDelivery): void {
    this.queue.push(delivery);
    this.nextSequence = Math.max(this.nextSequence, delivery.sequence + 1);
    this.queuedBytes += QUEUED_BYTES;
    this.change(QUEUED_BYTES);
  }

  /** Keeps a new event; false, keeping nothing, when the key keeps one with its id. */
  rememberEvent(event: StoredEvent): boolean {
    if (this.events.has(event.id)) return false;
    this.restoreEvent(event);
    return true;
  }

  /** Keeps an event (one read back from the journal replaces one kept with its id). */
  restoreEvent(event: StoredEvent): void {
    this.changes?.eventRemembered(event);
    // In the place of the one it replaces (as Valkey/Redis keeps it), whose bytes go.
    const replaced = this.events.get(event.id);
    if (replaced !== undefined) this.change(-eventBytes(replaced));
    this.events.set(event.id, event);
    this.change(eventBytes(event));
    if (this.events.size > MAX_EVENTS_PER_KEY) this.forgetOldestEvent();
    this.trim();
  }

  /** Queues an attempt; false (queuing nothing) when the key already has too many waiting. */
  enqueue(delivery: Omit<QueuedDelivery, 'sequence'>): boolean {
    if (this.queue.size >= MAX_QUEUED_PER_KEY) return false;
    if (this.queuedBytes + QUEUED_BYTES > this.budget.maxBytes / 2) return false;
    const queued = extend(delivery, { sequence: this.nextSequence++ });
    this.queue.push(queued);
    this.changes?.attemptQueued(queued);
    this.queuedBytes += QUEUED_BYTES;
    this.change(QUEUED_BYTES);
    return true;
  }

  /** Takes the earliest queued attempt off the queue. */
  takeQueued(): QueuedDelivery | undefined {
    const next = this.queue.pop();
    if (next !== undefined) {
      if (this.changes !== undefined) this.taken.add(next);
      this.queuedBytes -= QUEUED_BYTES;
      this.change(-QUEUED_BYTES);
    }
    return next;
  }

  record(entry: WebhookDelivery): void {
    this.changes?.deliveryLogged(entry);
    this.log.push(entry);
    this.change(deliveryBytes(entry));
    if (this.log.length > MAX_LOG_ENTRIES_PER_KEY) this.forgetOldestLogEntry();
    this.trim();
  }

  /** Forgets the oldest events and log entries while the state is over its byte budget. */
  private trim(): void {
    while (this.bytes > this.budget.maxBytes && (this.events.size > 1 || this.log.length > 1)) {
      if (this.events.size >= this.log.length) this.forgetOldestEvent();
      else this.forgetOldestLogEntry();
    }
  }

  private forgetOldestEvent(): void {
    const [id, event] = this.events.entries().next().value as [string, StoredEvent];
    this.events.delete(id);
    this.change(-eventBytes(event));
  }

  private forgetOldestLogEntry(): void {
    const entry = this.log.shift();
    if (entry !== undefined) this.change(-deliveryBytes(entry));
  }

  private change(delta: number): void {
    this.bytes += delta;
    this.budget.onBytes(delta);
  }
}
