// What the store keeps per payment and per Idempotency-Key: the record shapes the account and the byte meter share.
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

/** A payment as the store keeps it: the wire object plus what the sandbox needs to settle it. */
export interface StoredPayment {
  payment: Payment;
  /** Creation order within the account; orders payments created in the same millisecond. */
  sequence: number;
  /** The test token the payment was made with (its behaviour decides how it settles). */
  token: string;
  /** When a PENDING payment settles, on the account's clock (ms epoch). */
  settlesAt?: number;
  /** Its creation, then every capture, settlement, cancel and refund, oldest first. */
  timeline: TimelineStep[];
  /** `payment`'s JSON, made on first need and dropped when it changes (its bytes count). */
  json?: string;
}

/** A response as stored for idempotent replay. */
export interface StoredResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string;
  /** The problem `code` of a problem answer (so nothing parses the body to find it). */
  code?: string;
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
}
