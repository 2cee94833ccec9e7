// A key's data as plain records, read out of the store and written back: the testing entry's fixtures and snapshots.
import type { components } from '@payment-service/openapi';
import { type Faults, normalizeFaults } from '../shared/faults.js';
import {
  type IdempotencyRecord,
  packTimeline,
  type StoredResponse,
  type TimelineStep,
} from '../store/account.js';
import type { EndpointRecord } from '../store/webhook-state.js';
import type { SandboxState } from './account-service.js';

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

/** Everything of one key that `readAccountData` reads and `replaceAccountData` writes. */
export interface AccountData {
  offsetSeconds: number;
  faults: Faults;
  /** Oldest first. */
  payments: PaymentData[];
  /** Oldest first. */
  idempotencyRecords: IdempotencyData[];
}

/**
 * Reads a key's data as plain records (copies: changing them changes nothing stored).
 *
 * @example
 * readAccountData(runtime.state, apiKey).payments.length; // 0 for a new key
 */
export function readAccountData(sandbox: SandboxState, apiKey: string): AccountData {
  const account = sandbox.store.find(apiKey);
  if (account === undefined) {
    return { offsetSeconds: 0, faults: {}, payments: [], idempotencyRecords: [] };
  }
  const payments: PaymentData[] = [];
  for (const stored of account.storedPayments()) {
    payments.push({
      payment: { ...stored.payment },
      token: stored.token,
      settlesAt: stored.payment.status === 'PENDING' ? stored.settlesAt : undefined,
      timeline: stored.timeline.map((step) => ({ ...step })),
    });
  }
  const idempotencyRecords: IdempotencyData[] = [];
  for (const record of account.idempotencyRecords.values()) {
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
    offsetSeconds: account.offsetSeconds,
    faults: normalizeFaults(account.faults),
    payments,
    idempotencyRecords,
  };
}

/**
 * Adds payments to a key, oldest first, as the newest ones (the store's caps and byte budgets
 * apply: beyond them the key's oldest payments go). No event is sent: they are the key's past. A
 * PENDING one settles at its `settlesAt`.
 *
 * @example
 * addPayments(runtime.state, apiKey, [{ payment, token: 'tok_test_success', settlesAt: undefined, timeline: [] }]);
 */
export function addPayments(
  sandbox: SandboxState,
  apiKey: string,
  payments: readonly PaymentData[],
): void {
  if (payments.length === 0) return;
  const account = sandbox.store.open(apiKey);
  for (const { payment, token, settlesAt, timeline } of payments) {
    const created = { at: Date.parse(payment.created_at), change: 'created', ...payment } as const;
    sandbox.store.insertPayment(account, {
      id: payment.id,
      json: JSON.stringify(payment),
      token,
      settlesAt: payment.status === 'PENDING' ? settlesAt : undefined,
      timeline: packTimeline(timeline.length > 0 ? timeline : [created]),
    });
  }
}

/**
 * Replaces everything of a key with `data`: its payments, idempotency records, faults and clock
 * offset; its events, delivery log and queued deliveries start empty. `endpoints` are registered
 * again as they were (ids and signing keys).
 *
 * @example
 * replaceAccountData(runtime.state, apiKey, readAccountData(runtime.state, apiKey), endpoints);
 */
export function replaceAccountData(
  sandbox: SandboxState,
  apiKey: string,
  data: AccountData,
  endpoints: readonly EndpointRecord[],
): void {
  sandbox.store.reset(apiKey);
  const account = sandbox.store.open(apiKey);
  account.setOffset(data.offsetSeconds);
  account.setFaults(normalizeFaults(data.faults));
  addPayments(sandbox, apiKey, data.payments);
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
    sandbox.store.addIdempotencyRecord(account, stored);
    sandbox.store.completeIdempotencyRecord(account, stored, { ...record.response });
  }
  for (const endpoint of endpoints) {
    account.webhookState().saveEndpoint(endpoint);
  }
  sandbox.store.dropIfEmpty(account);
}
