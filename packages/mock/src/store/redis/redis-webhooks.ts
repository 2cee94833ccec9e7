// One key's webhooks in Valkey/Redis: endpoints, events, the delivery log, and attempts claimed and leased by one instance at a time.
import { deliveryBytes, eventBytes } from '../byte-sizes.js';
import { MAX_ENDPOINTS_PER_KEY } from '../limits.js';
import type { WebhookStore } from '../store.js';
import type {
  EndpointRecord,
  EndpointSaved,
  QueuedDelivery,
  StoredEvent,
  WebhookDelivery,
} from '../webhook-records.js';
import {
  decodeDelivery,
  decodeEndpoint,
  decodeSized,
  encodeDelivery,
  encodeEndpoint,
} from './codec.js';
import { StoreReplyError } from './errors.js';
import type { RedisAccount } from './redis-account.js';

/** The member of an attempt in the account's schedule: its sequence, zero-padded (ties sort by it). */
export function attemptMember(sequence: number): string {
  return String(sequence).padStart(12, '0');
}

/**
 * The webhook state of one key in Valkey/Redis, bounded as the memory store's (16 endpoints,
 * 1 000 events, 500 log entries, 10 000 waiting attempts; half the key's byte budget, a quarter
 * for the waiting attempts). `claimDueAttempt` leases the attempt to its caller for
 * `leaseMs`: if `finishAttempt` does not come by then (the instance died), the next claim on
 * any instance puts it back on the schedule and takes it.
 *
 * @example
 * const state = (await store.open(apiKey)).webhookState();
 * const attempt = await state.claimDueAttempt(accountNow);
 */
export class RedisWebhooks implements WebhookStore {
  constructor(private readonly account: RedisAccount) {}

  private get client() {
    return this.account.context.runner.client;
  }

  /** Checks what is read back (see `RecordReading`). */
  private get reading() {
    return this.account.context.reading;
  }

  /** An event read back from `where`, checked unless known to hold. */
  private decodeEvent(text: string, where: string): StoredEvent {
    return decodeSized<StoredEvent>(text, this.reading, where, 'an event', (value) =>
      this.reading.checks.event(value),
    );
  }

  /** Bytes the key's webhook state may hold. */
  private get maxBytes(): number {
    return this.account.context.limits.keyMemoryBudgetBytes / 2;
  }

  endpointCount(): number {
    return this.account.endpoints;
  }

  async endpointById(id: string): Promise<EndpointRecord | undefined> {
    const key = this.account.part('e');
    const text = await this.account.command(() => this.client.hget(key, id));
    return text === null ? undefined : decodeEndpoint(text, this.reading, `${key} field ${id}`);
  }

  async listEndpoints(): Promise<EndpointRecord[]> {
    const key = this.account.part('e');
    const stored = (await this.account.run('psm_endpoints')) as string[];
    return stored.map((text) => decodeEndpoint(text, this.reading, key));
  }

  async saveEndpoint(record: EndpointRecord): Promise<EndpointSaved> {
    const count = await this.store(record, '0');
    if (count === -3) return 'id held';
    return count === -2 ? 'at the cap' : 'saved';
  }

  async deleteEndpoint(id: string): Promise<boolean> {
    const deleted = (await this.account.run('psm_endpoint_delete', { id })) === 1;
    if (deleted) this.account.endpoints = Math.max(0, this.account.endpoints - 1);
    return deleted;
  }

  async disableEndpoint(record: EndpointRecord): Promise<void> {
    record.endpoint.status = 'disabled';
    await this.store(record, '1');
  }

  /**
   * Stores an endpoint, only a new one ('0') or only a held one ('1'): the script's answer (the
   * endpoint count, or why nothing was stored: see psm_endpoint.lua).
   */
  private async store(record: EndpointRecord, onlyIfHeld: '0' | '1'): Promise<number> {
    const count = Number(
      await this.account.run('psm_endpoint', {
        id: record.endpoint.id,
        json: encodeEndpoint(record),
        onlyIfHeld,
        max: MAX_ENDPOINTS_PER_KEY,
      }),
    );
    if (count === -2) this.account.endpoints = MAX_ENDPOINTS_PER_KEY;
    if (count >= 0) this.account.endpoints = count;
    return count;
  }

  async eventById(id: string): Promise<StoredEvent | undefined> {
    const key = this.account.part('v');
    const text = await this.account.command(() => this.client.hget(key, id));
    return text === null ? undefined : this.decodeEvent(text, `${key} field ${id}`);
  }

  async listEvents(): Promise<StoredEvent[]> {
    const stored = (await this.account.run('psm_events')) as string[];
    const key = this.account.part('v');
    return stored.map((text) => this.decodeEvent(text, key));
  }

  async rememberEvent(event: StoredEvent): Promise<boolean> {
    const bytes = eventBytes(event);
    const json = JSON.stringify({ id: event.id, type: event.type, body: event.body });
    const answer = await this.account.run('psm_event', {
      id: event.id,
      bytes,
      json,
      budget: this.maxBytes,
    });
    return answer !== 2;
  }

  async deliveryLog(): Promise<WebhookDelivery[]> {
    const stored = await this.account.command(() =>
      this.client.lrange(this.account.part('l'), 0, -1),
    );
    const key = this.account.part('l');
    return stored.map((text) =>
      decodeSized<WebhookDelivery>(text, this.reading, key, 'a delivery log entry', (value) =>
        this.reading.checks.delivery(value),
      ),
    );
  }

  async record(entry: WebhookDelivery): Promise<void> {
    await this.account.run('psm_log', {
      bytes: deliveryBytes(entry),
      entry: JSON.stringify(entry),
      budget: this.maxBytes,
    });
  }

  async enqueue(delivery: Omit<QueuedDelivery, 'sequence'>): Promise<boolean> {
    const sequence = await this.account.run('psm_enqueue', {
      dueAt: delivery.dueAt,
      json: encodeDelivery(delivery),
      budget: this.maxBytes / 2,
    });
    return Number(sequence) >= 0;
  }

  /** When the earliest attempt is due; an attempt whose lease ended (its instance died) is due again. */
  async nextAttemptAt(): Promise<number | undefined> {
    const { clock } = this.account.context;
    const due = await this.account.run('psm_next_attempt', {
      serverNow: clock === undefined ? '' : clock(),
    });
    if (due === null) return undefined;
    const at = Number(due);
    if (!Number.isFinite(at))
      throw new StoreReplyError('the store named a due time that is no number');
    return at;
  }

  async claimDueAttempt(
    accountNow: number,
    maxLeased?: number,
  ): Promise<QueuedDelivery | undefined> {
    const { clock, leaseMs, owner, leases } = this.account.context;
    // Without an injected clock the lease runs on the store server's clock (no skew between instances).
    const serverNow = clock === undefined ? '' : clock();
    const leaseUntil = serverNow === '' ? '' : serverNow + leaseMs;
    const answer = (await this.account.run('psm_claim_attempt', {
      accountNow,
      serverNow,
      leaseUntil,
      leaseMs,
      owner,
      maxLeased: maxLeased ?? '',
    })) as [string, string] | null;
    if (answer === null) return undefined;
    leases.hold(this.account, answer[0]);
    return decodeDelivery(answer[0], answer[1], this.reading, this.account.part('qd'));
  }

  async finishAttempt(
    delivery: QueuedDelivery,
    retry?: Omit<QueuedDelivery, 'sequence'>,
  ): Promise<boolean> {
    const member = attemptMember(delivery.sequence);
    this.account.context.leases.release(this.account, member);
    const sequence = await this.account.run('psm_finish_attempt', {
      member,
      retry:
        retry === undefined
          ? undefined
          : { dueAt: retry.dueAt, json: encodeDelivery(retry), budget: this.maxBytes / 2 },
    });
    return Number(sequence) >= 0;
  }

  async queuedAttempts(): Promise<QueuedDelivery[]> {
    const pairs = (await this.account.run('psm_attempts')) as string[];
    const out: QueuedDelivery[] = [];
    for (let index = 0; index + 1 < pairs.length; index += 2) {
      const [member, stored] = [pairs[index] as string, pairs[index + 1] as string];
      out.push(decodeDelivery(member, stored, this.reading, this.account.part('qd')));
    }
    return out;
  }
}
