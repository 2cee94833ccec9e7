// A key's data as plain records, read out of the store and written back: the testing entry's fixtures and snapshots.
import type { components } from '@payment-service/openapi';
import { type Faults, normalizeFaults } from '../shared/faults.js';
import {
  type IdempotencyRecord,
  packTimeline,
  type StoredPayment,
  type StoredResponse,
  type TimelineStep,
} from '../store/records.js';
import type { AccountStore } from '../store/store.js';
import type {
  EndpointRecord,
  QueuedDelivery,
  StoredEvent,
  WebhookDelivery,
} from '../store/webhook-records.js';
import type { SandboxState } from './sandbox-state.js';

type Payment = components['schemas']['Payment'];

/** A payment with what the sandbox keeps beside it (times on the key's clock, ms epoch). */
export interface PaymentData {
  payment: Payment;
  /** The test token it was made with: a PENDING payment settles by its behaviour. */
  token: string;
  /** When a PENDING payment settles. */
  settlesAt: number | undefined;
  /** Its creation, then every change, oldest first. */
  timeline: TimelineStep[];
}

/** A stored Idempotency-Key answer (in-flight ones are left out). */
export interface IdempotencyData {
  key: string;
  method: string;
  path: string;
  bodyFingerprint: string;
  response: StoredResponse;
  expiresAt: number;
  serverExpiresAt: number;
}

/** A delivery attempt waiting on the key's clock, with its endpoint by id. */
export interface QueuedData {
  event: StoredEvent;
  /** One of the key's endpoints, or the server-wide one (`we_default`). */
  endpointId: string;
  attempt: number;
  /** On the key's clock (ms epoch). */
  dueAt: number;
}

/** A key's webhook state: endpoints with their signing keys, events, the log, the queue. */
export interface WebhookData {
  /** Oldest first. */
  endpoints: EndpointRecord[];
  /** Oldest first: the events the key keeps for redelivery, and those its queue still sends. */
  events: StoredEvent[];
  /** The delivery log, oldest first. */
  log: WebhookDelivery[];
  /** Earliest due first. */
  queued: QueuedData[];
}

/** Everything of one key that `readAccountData` reads and `replaceAccountData` writes. */
export interface AccountData {
  offsetSeconds: number;
  faults: Faults;
  /** Oldest first. */
  payments: PaymentData[];
  /** Oldest first. */
  idempotencyRecords: IdempotencyData[];
  webhooks: WebhookData;
}

/**
 * The webhook state of a key that has none.
 *
 * @example
 * replaceAccountData(runtime.state, apiKey, { offsetSeconds: 0, faults: {}, payments: [], idempotencyRecords: [], webhooks: noWebhooks() });
 */
export function noWebhooks(): WebhookData {
  return { endpoints: [], events: [], log: [], queued: [] };
}

/**
 * Reads a key's data as plain records (copies: changing them changes nothing stored), through
 * the store seam.
 *
 * @example
 * (await readAccountData(runtime.state, apiKey)).payments.length; // 0 for a new key
 */
export async function readAccountData(sandbox: SandboxState, apiKey: string): Promise<AccountData> {
  const account = await sandbox.store.find(apiKey);
  if (account === undefined) return accountDataOf(undefined, sandbox.defaultEndpoint);
  const state = account.webhooks;
  return accountDataOf(
    {
      offsetSeconds: account.offsetSeconds,
      faults: account.faults,
      payments: await account.storedPayments(),
      idempotencyRecords: await account.listIdempotencyRecords(),
      webhooks:
        state === undefined
          ? undefined
          : {
              endpoints: await state.listEndpoints(),
              queued: await state.queuedAttempts(),
              events: await state.listEvents(),
              log: await state.deliveryLog(),
            },
    },
    sandbox.defaultEndpoint,
  );
}

/** A key's state as a store holds it, read: what `accountDataOf` copies into plain records. */
export interface AccountParts {
  offsetSeconds: number;
  faults: Faults;
  /** Oldest first. */
  payments: Iterable<StoredPayment>;
  /** Oldest first (in-flight ones are left out of the copy). */
  idempotencyRecords: Iterable<IdempotencyRecord>;
  /** Undefined: the key never had webhook state. */
  webhooks:
    | {
        endpoints: readonly EndpointRecord[];
        /** In any order. */
        queued: readonly QueuedDelivery[];
        /** Oldest first: the events kept for redelivery. */
        events: readonly StoredEvent[];
        /** Oldest first. */
        log: readonly WebhookDelivery[];
      }
    | undefined;
}

/**
 * A key's data as plain records (copies), from its state as read (undefined: the key holds
 * nothing): the one shaping of what `readAccountData` reads through the seam and the testing
 * entry reads at once from its memory store.
 *
 * @example
 * accountDataOf(undefined, undefined).payments; // []
 */
export function accountDataOf(
  parts: AccountParts | undefined,
  defaultEndpoint: EndpointRecord | undefined,
): AccountData {
  if (parts === undefined) {
    return {
      offsetSeconds: 0,
      faults: {},
      payments: [],
      idempotencyRecords: [],
      webhooks: noWebhooks(),
    };
  }
  const payments: PaymentData[] = [];
  for (const stored of parts.payments) {
    payments.push({
      payment: { ...stored.payment },
      token: stored.token,
      settlesAt: stored.payment.status === 'PENDING' ? stored.settlesAt : undefined,
      timeline: stored.timeline.map((step) => ({ ...step })),
    });
  }
  const idempotencyRecords: IdempotencyData[] = [];
  for (const record of parts.idempotencyRecords) {
    if (record.response === undefined) continue;
    const { key, method, path, bodyFingerprint, expiresAt, serverExpiresAt } = record;
    const response = { ...record.response, headers: { ...record.response.headers } };
    idempotencyRecords.push({
      key,
      method,
      path,
      bodyFingerprint,
      response,
      expiresAt,
      serverExpiresAt,
    });
  }
  return {
    offsetSeconds: parts.offsetSeconds,
    faults: normalizeFaults(parts.faults),
    payments,
    idempotencyRecords,
    webhooks: webhookDataOf(parts.webhooks, defaultEndpoint),
  };
}

/** Copies of a key's endpoints, events, log and queued attempts (to live endpoints only). */
function webhookDataOf(
  state: AccountParts['webhooks'],
  defaultEndpoint: EndpointRecord | undefined,
): WebhookData {
  if (state === undefined) return noWebhooks();
  const registered = state.endpoints;
  const endpoints = registered.map(({ endpoint, key }) => ({
    endpoint: { ...endpoint, events: endpoint.events === null ? null : [...endpoint.events] },
    key: Uint8Array.from(key),
  }));
  // An attempt to a deleted endpoint is dropped when it falls due: it is not part of the state.
  const byId = new Map(registered.map((record) => [record.endpoint.id, record]));
  const live = (delivery: QueuedDelivery) =>
    delivery.target === defaultEndpoint ||
    byId.get(delivery.target.endpoint.id) === delivery.target;
  const waiting = state.queued
    .filter(live)
    .sort((a, b) => a.dueAt - b.dueAt || a.sequence - b.sequence);
  const keptEvents = state.events;
  const kept = new Set(keptEvents.map((event) => event.id));
  const sentOnly = new Map<string, StoredEvent>();
  for (const { event } of waiting) {
    if (!kept.has(event.id)) sentOnly.set(event.id, event);
  }
  return {
    endpoints,
    // Events only the queue still holds are older than every kept one.
    events: [...sentOnly.values(), ...keptEvents].map((event) => ({ ...event })),
    log: state.log.map((entry) => ({ ...entry })),
    queued: waiting.map(({ event, target, attempt, dueAt }) => ({
      event: { ...event },
      endpointId: target.endpoint.id,
      attempt,
      dueAt,
    })),
  };
}

/**
 * Adds payments to a key, oldest first, as the newest ones (the store's caps and byte budgets
 * apply: beyond them the key's oldest payments go). No event is sent: they are the key's past. A
 * PENDING one settles at its `settlesAt`.
 *
 * @example
 * await addPayments(runtime.state, apiKey, [{ payment, token: 'tok_test_success', settlesAt: undefined, timeline: [] }]);
 */
export async function addPayments(
  sandbox: SandboxState,
  apiKey: string,
  payments: readonly PaymentData[],
): Promise<void> {
  if (payments.length === 0) return;
  const account = await sandbox.store.open(apiKey);
  await addPaymentsTo(account, payments);
}

/** Adds payments to an account, oldest first, as its newest ones. */
async function addPaymentsTo(
  account: AccountStore,
  payments: readonly PaymentData[],
): Promise<void> {
  for (const { payment, token, settlesAt, timeline } of payments) {
    const created = { at: Date.parse(payment.created_at), change: 'created', ...payment } as const;
    await account.createPayment({
      id: payment.id,
      json: JSON.stringify(payment),
      token,
      settlesAt: payment.status === 'PENDING' ? settlesAt : undefined,
      timeline: packTimeline(timeline.length > 0 ? timeline : [created]),
    });
  }
}

/**
 * Replaces everything of a key with `data`: its payments, idempotency records, faults, clock
 * offset, webhook endpoints (ids and signing keys), events, delivery log and queued attempts.
 * The data must be checked first (the testing entry's snapshots are): nothing here refuses it.
 *
 * @example
 * await replaceAccountData(runtime.state, apiKey, await readAccountData(runtime.state, apiKey));
 */
export async function replaceAccountData(
  sandbox: SandboxState,
  apiKey: string,
  data: AccountData,
): Promise<void> {
  await sandbox.store.reset(apiKey);
  const account = await sandbox.store.open(apiKey);
  await account.setOffset(data.offsetSeconds);
  await account.setFaults(normalizeFaults(data.faults));
  // Into this account (not the key's by name): a reset meanwhile takes everything written here.
  await addPaymentsTo(account, data.payments);
  for (const record of data.idempotencyRecords) {
    const stored: IdempotencyRecord = {
      key: record.key,
      method: record.method,
      path: record.path,
      bodyFingerprint: record.bodyFingerprint,
      response: undefined,
      expiresAt: record.expiresAt,
      serverExpiresAt: record.serverExpiresAt,
      owner: undefined,
    };
    // Expires nothing: the records are restored as they are.
    await account.claimIdempotencyKey(stored, Number.NEGATIVE_INFINITY);
    await account.completeIdempotencyRecord(stored, { ...record.response });
  }
  await writeWebhookData(account, data.webhooks, sandbox.defaultEndpoint);
  await sandbox.store.release(account);
}

/** Registers the endpoints, remembers the events and the log, queues the attempts. */
async function writeWebhookData(
  account: AccountStore,
  data: WebhookData,
  defaultEndpoint: EndpointRecord | undefined,
): Promise<void> {
  const { endpoints, events, log, queued } = data;
  if (endpoints.length + events.length + log.length + queued.length === 0) return;
  const state = account.webhookState();
  for (const { endpoint, key } of endpoints) {
    const events = endpoint.events === null ? null : [...endpoint.events];
    await state.saveEndpoint({ endpoint: { ...endpoint, events }, key: Uint8Array.from(key) });
  }
  for (const event of events) await state.rememberEvent({ ...event });
  for (const entry of log) await state.record({ ...entry });
  for (const { event, endpointId, attempt, dueAt } of queued) {
    const target =
      endpointId === defaultEndpoint?.endpoint.id
        ? defaultEndpoint
        : await state.endpointById(endpointId);
    if (target !== undefined) await state.enqueue({ event: { ...event }, target, attempt, dueAt });
  }
}
