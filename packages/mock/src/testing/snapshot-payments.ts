// A snapshot's payments: written with ISO times, read back checked against the spec's Payment schema and the lifecycle.
import { openapiDocument, sandboxDocument } from '@payment-service/openapi';
import type { TokenTable } from '../domain/tokens.js';
import type { PaymentData } from '../service/account-data.js';
import type { ApiValidators } from '../shared/validation.js';
import { MAX_TIMELINE_STEPS, type TimelineStep } from '../store/records.js';
import { lifecycleErrors } from './fixtures.js';
import {
  arrayOf,
  iso,
  isRecord,
  type Problems,
  shown,
  type TimeReader,
  timeOf,
} from './snapshot-check.js';
import type { SnapshotPayment } from './types.js';

/** The changes a timeline step names: the sandbox spec's `TimelineEntry.change`. */
const CHANGES: readonly string[] =
  sandboxDocument.components.schemas.TimelineEntry.properties.change.enum;
/** The statuses a payment can have: the spec's `PaymentStatus`. */
const STATUSES: readonly string[] = openapiDocument.components.schemas.PaymentStatus.enum;
/** The largest amount: the spec's `Amount.maximum`. */
const MAX_AMOUNT: number = openapiDocument.components.schemas.Amount.maximum;

/** What reading payments needs from the sandbox. */
export interface PaymentContext {
  validators: ApiValidators;
  tokens: TokenTable;
  /** The most payments a key keeps. */
  maxPayments: number;
  /** How times are given: ISO text (a snapshot, the default) or ms epoch (a store). */
  readTime?: TimeReader;
}

/**
 * One payment as a snapshot writes it.
 *
 * @example
 * snapshotPayment(readAccountData(state, apiKey).payments[0]).settles_at; // null unless PENDING
 */
export function snapshotPayment({
  payment,
  token,
  settlesAt,
  timeline,
}: PaymentData): SnapshotPayment {
  return {
    payment,
    token,
    settles_at: settlesAt === undefined ? null : iso(settlesAt),
    timeline: timeline.map((step) => ({ ...step, at: iso(step.at) })),
  };
}

/**
 * Reads a snapshot's payments: each one the spec's `Payment`, consistent with its status and
 * token, with a unique id, a settlement time when PENDING (only then), and a timeline that
 * starts with its creation. Problems go to `problems`.
 *
 * @example
 * readPayments(snapshot.payments, context, problems);
 */
export function readPayments(
  given: unknown,
  context: PaymentContext,
  problems: Problems,
): PaymentData[] {
  const ids = new Set<string>();
  return arrayOf(given, 'payments', context.maxPayments, problems).flatMap((entry, index) => {
    const where = `payments[${index}]`;
    const read = readPayment(entry, where, context, problems);
    if (read === undefined) return [];
    const id = read.payment.id;
    if (ids.has(id)) {
      problems.add(
        `${where}.payment.id`,
        `${where}.payment.id ${shown(id)} is already the id of another payment; ids must be unique`,
      );
    }
    ids.add(id);
    return [read];
  });
}

/**
 * Reads one payment `{ payment, token, settles_at, timeline }` at `where`: the spec's `Payment`,
 * consistent with its status and token, a settlement time when PENDING (only then), and a
 * timeline that starts with its creation. Undefined when its payment is not a `Payment`; every
 * problem goes to `problems`. (A snapshot's payments, and each payment a store reads back.)
 *
 * @example
 * readPayment({ payment, token: 'tok_test_success', settles_at: null, timeline }, 'payment', context, problems);
 */
export function readPayment(
  entry: unknown,
  where: string,
  context: Omit<PaymentContext, 'maxPayments'>,
  problems: Problems,
): PaymentData | undefined {
  if (!isRecord(entry)) {
    problems.add(where, `${where} must be an object { payment, token, settles_at, timeline }`);
    return undefined;
  }
  const checked = context.validators.validator('Payment')(entry.payment);
  const token = entry.token;
  const readTime = context.readTime ?? timeOf;
  const timeline = readTimeline(entry.timeline, `${where}.timeline`, problems, readTime);
  if (!problems.check(`${where}.payment`, checked)) {
    if (typeof token !== 'string' || context.tokens.behaviourOf(token) === undefined) {
      problems.add(
        `${where}.token`,
        `${where}.token must be a test token of this sandbox; got ${shown(token)}`,
      );
    }
    return undefined;
  }
  const payment = checked.value;
  for (const error of lifecycleErrors(payment, token, where, context.tokens)) {
    problems.add(error.param, error.message, error.code);
  }
  let settlesAt: number | undefined;
  if (payment.status === 'PENDING') {
    settlesAt = readTime(entry.settles_at, `${where}.settles_at`, problems);
  } else if (entry.settles_at !== null) {
    problems.add(
      `${where}.settles_at`,
      `${where}.settles_at must be null for a ${payment.status} payment (only a PENDING one settles); got ${shown(entry.settles_at)}`,
    );
  }
  return { payment, token: String(token), settlesAt, timeline };
}

/** A payment's timeline: its creation, then up to 31 changes, each at a time with a known change. */
function readTimeline(
  given: unknown,
  where: string,
  problems: Problems,
  readTime: TimeReader,
): TimelineStep[] {
  const steps = arrayOf(given, where, MAX_TIMELINE_STEPS, problems);
  if (Array.isArray(given) && given.length === 0) {
    problems.add(where, `${where} must list the payment's creation at least`);
  }
  return steps.map((step, index) => {
    const at = `${where}[${index}]`;
    const value = isRecord(step) ? step : {};
    if (!isRecord(step)) problems.add(at, `${at} must be an object { at, change, status, amount }`);
    const time = readTime(value.at, `${at}.at`, problems);
    const change = index === 0 ? ['created'] : CHANGES;
    if (!change.includes(value.change as string)) {
      problems.add(
        `${at}.change`,
        `${at}.change must be one of ${change.join(', ')}; got ${shown(value.change)}`,
      );
    }
    if (!STATUSES.includes(value.status as string)) {
      problems.add(
        `${at}.status`,
        `${at}.status must be one of ${STATUSES.join(', ')}; got ${shown(value.status)}`,
      );
    }
    const amount = value.amount;
    if (
      typeof amount !== 'number' ||
      !Number.isInteger(amount) ||
      amount < 0 ||
      amount > MAX_AMOUNT
    ) {
      problems.add(
        `${at}.amount`,
        `${at}.amount must be an integer from 0 to ${MAX_AMOUNT}; got ${shown(amount)}`,
      );
    }
    return {
      at: time,
      change: value.change as TimelineStep['change'],
      status: value.status as TimelineStep['status'],
      amount: amount as number,
    };
  });
}
