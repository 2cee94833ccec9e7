// What the store keeps per payment and per Idempotency-Key: compact records (a payment as its JSON text) that the account and the byte meter share.
import type { components, SandboxComponents } from '@payment-service/openapi';

type Payment = components['schemas']['Payment'];
type TimelineEntry = SandboxComponents['schemas']['TimelineEntry'];

/** One change of a payment, as its timeline keeps it (the time on the key's clock, ms epoch). */
export interface TimelineStep {
  at: number;
  change: TimelineEntry['change'];
  status: Payment['status'];
  amount: number;
}

/** Changes one payment's timeline keeps: its creation and the 31 latest after it. */
export const MAX_TIMELINE_STEPS = 32;

/**
 * A payment as the store keeps it: its JSON text (what the API answers; parsed only when the
 * payment changes), what the sandbox needs to settle it, and its timeline packed. A few fields
 * and two strings a payment, so a sandbox of many payments gives the garbage collector little
 * to trace.
 *
 * @example
 * const stored = new StoredPayment(payment.id, JSON.stringify(payment), 0, 'tok_test_success', undefined, { at: Date.now(), status: payment.status, amount: payment.amount });
 * stored.payment.id === payment.id; // true (a parsed copy)
 */
export class StoredPayment {
  readonly id: string;
  /** The payment's JSON as the API answers it now. */
  json: string;
  /** The test token the payment was made with (its behaviour decides how it settles). */
  token: string;
  /** When a PENDING payment settles, on the account's clock (ms epoch). */
  settlesAt: number | undefined;
  /** The timeline's first step: the creation, with the status and amount then. */
  readonly createdAt: number;
  readonly createdStatus: Payment['status'];
  readonly createdAmount: number;
  /** The steps after the creation (at most `MAX_TIMELINE_STEPS - 1`, oldest first), as JSON. */
  changes: string | undefined;

  constructor(
    id: string,
    json: string,
    /** Creation order within the account; orders payments created in the same millisecond. */
    readonly sequence: number,
    token: string,
    settlesAt: number | undefined,
    /** The creation step: when, and the status and amount then. */
    created: Omit<TimelineStep, 'change'>,
    changes: string | undefined = undefined,
  ) {
    this.id = id;
    this.json = json;
    this.token = token;
    this.settlesAt = settlesAt;
    this.createdAt = created.at;
    this.createdStatus = created.status;
    this.createdAmount = created.amount;
    this.changes = changes;
  }

  /** The payment now: a fresh copy parsed from its JSON (changing it changes nothing stored). */
  get payment(): Payment {
    return JSON.parse(this.json) as Payment;
  }

  /** Its creation, then every capture, settlement, cancel and refund kept, oldest first. */
  get timeline(): TimelineStep[] {
    const created: TimelineStep = {
      at: this.createdAt,
      change: 'created',
      status: this.createdStatus,
      amount: this.createdAmount,
    };
    if (this.changes === undefined) return [created];
    return [created, ...(JSON.parse(this.changes) as TimelineStep[])];
  }

  /** Appends a step after the creation (the latest `MAX_TIMELINE_STEPS - 1` are kept). */
  addChange(step: TimelineStep): void {
    const steps = this.changes === undefined ? [] : (JSON.parse(this.changes) as TimelineStep[]);
    steps.push(step);
    this.changes = JSON.stringify(steps.slice(-(MAX_TIMELINE_STEPS - 1)));
  }

  /** Its timeline packed as the journal keeps it: the creation step, then the later ones as JSON. */
  packedTimeline(): PackedTimeline {
    return [this.createdAt, this.createdStatus, this.createdAmount, this.changes ?? null];
  }
}

/** A payment as the journal and fixtures give it: everything a `StoredPayment` is made from. */
export interface PaymentRecord {
  id: string;
  json: string;
  token: string;
  settlesAt: number | undefined;
  timeline: PackedTimeline;
}

/** A timeline packed: creation time, status and amount, then the later steps as JSON (or null). */
export type PackedTimeline = [number, Payment['status'], number, string | null];

/**
 * A timeline given as steps (a fixture, a snapshot), packed: its creation and the latest
 * `MAX_TIMELINE_STEPS - 1` steps after it.
 *
 * @example
 * packTimeline([{ at: 0, change: 'created', status: 'SUCCEEDED', amount: 100 }]); // [0, 'SUCCEEDED', 100, null]
 */
export function packTimeline(steps: readonly TimelineStep[]): PackedTimeline {
  const [created, ...later] = steps;
  if (created === undefined) throw new RangeError('a timeline starts with its creation');
  const kept = later.slice(-(MAX_TIMELINE_STEPS - 1));
  return [
    created.at,
    created.status,
    created.amount,
    kept.length === 0 ? null : JSON.stringify(kept),
  ];
}

/** A response as stored for idempotent replay. */
export interface StoredResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string;
  /** The problem `code` of a problem answer (so nothing parses the body to find it). */
  code?: string;
}

const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };
const PROBLEM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/problem+json',
};

/**
 * A 2xx JSON answer as stored for replay. The headers object is shared: nothing changes a
 * stored response's headers.
 *
 * @example
 * jsonResponse(201, '{"id":"pay_1"}'); // { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"pay_1"}' }
 */
export function jsonResponse(status: number, body: string): StoredResponse {
  return { status, headers: JSON_HEADERS, body };
}

/**
 * A stored answer as a store keeps it: its headers object shared when they are a JSON or problem
 * answer's `content-type` alone (the answer itself when they already are, or are other headers).
 * An answer read back (a journal line, a snapshot) otherwise holds its own headers object and
 * content-type string: about 90 bytes more a record than the same answer stored live.
 *
 * @example
 * keptResponse({ status: 201, headers: { 'content-type': 'application/json' }, body: '{}' }).headers === jsonResponse(201, '{}').headers; // true
 */
export function keptResponse(response: StoredResponse): StoredResponse {
  const { headers } = response;
  if (headers === JSON_HEADERS || headers === PROBLEM_HEADERS) return response;
  let shared: Readonly<Record<string, string>> | undefined;
  for (const name in headers) {
    if (shared !== undefined || name !== 'content-type') return response;
    const type = headers[name];
    if (type === JSON_HEADERS['content-type']) shared = JSON_HEADERS;
    else if (type === PROBLEM_HEADERS['content-type']) shared = PROBLEM_HEADERS;
    else return response;
  }
  if (shared === undefined) return response;
  return response.code === undefined
    ? { status: response.status, headers: shared, body: response.body }
    : { status: response.status, headers: shared, body: response.body, code: response.code };
}

/** What the sandbox remembers about one Idempotency-Key. */
export interface IdempotencyRecord {
  key: string;
  method: string;
  path: string;
  /** The request body as `bodyFingerprint` keeps it (its text, or a hash of a long one). */
  bodyFingerprint: string;
  response?: StoredResponse;
  /** Expiry on the account's clock. */
  expiresAt: number;
  /** Latest expiry on the server's clock (the account's clock only runs ahead of it). */
  serverExpiresAt: number;
  /** The account holding the record while the store does (set and cleared by the store). */
  owner?: object | undefined;
}

/**
 * An idempotency record as the journal and snapshots keep it: without the store's link to its
 * account.
 *
 * @example
 * recordData(record).owner; // undefined
 */
export function recordData(record: IdempotencyRecord): IdempotencyRecord {
  const { key, method, path, bodyFingerprint, response, expiresAt, serverExpiresAt } = record;
  return { key, method, path, bodyFingerprint, response, expiresAt, serverExpiresAt };
}
