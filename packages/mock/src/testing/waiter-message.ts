// Why a `webhooks.next()` waiter gave up: what it waited for, what was delivered, what is due on the sandbox clock.
import type { AccountData } from '../service/account-data.js';
import type { NextWanted } from './next-options.js';
import type { HandledDelivery } from './webhook-router.js';
import type { GiveUp } from './webhook-waiters.js';

/** At most this many deliveries, and this many due items, are listed (the latest, the earliest). */
const LISTED = 10;

/** Something due later on the sandbox clock. */
export interface DueItem {
  /** Sandbox clock, ms epoch. */
  at: number;
  /** `attempt 2 of payment.succeeded pay_…`, `pay_… settles`. */
  what: string;
}

/**
 * What is due later on a key's clock: its queued attempts and settlements, earliest first.
 *
 * @example
 * dueItems(await readAccountData(state, apiKey)); // [{ at, what: 'pay_… settles' }]
 */
export function dueItems(data: AccountData): DueItem[] {
  const attempts = data.webhooks.queued.map(({ event, attempt, endpointId, dueAt }) => ({
    at: dueAt,
    what: `attempt ${attempt} of ${event.type} ${paymentOf(event.body)} to ${endpointId}`,
  }));
  const settlements = data.payments.flatMap(({ payment, settlesAt }) =>
    settlesAt === undefined ? [] : [{ at: settlesAt, what: `${payment.id} settles` }],
  );
  return [...attempts, ...settlements].sort((a, b) => a.at - b.at);
}

/** The payment id inside a stored event's body, for a message ('?' if it cannot be read). */
function paymentOf(body: string): string {
  try {
    const id = (JSON.parse(body) as { data?: { object?: { id?: unknown } } }).data?.object?.id;
    return typeof id === 'string' ? id : '?';
  } catch {
    return '?';
  }
}

/** What the message says, read from the sandbox when the waiter gives up. */
export interface WaiterState {
  wanted: NextWanted;
  why: GiveUp;
  /** How many endpoints deliver to a handler. */
  routes: number;
  delivered: readonly HandledDelivery[];
  /** Earliest first. */
  due: readonly DueItem[];
  /** The sandbox clock now (ms epoch). */
  now: number;
}

/**
 * The error message of a waiter that gave up: why, what reached a handler (and what it
 * answered), and what is due on the sandbox clock, with the step that runs it.
 *
 * @example
 * waiterMessage({ wanted, why: { reason: 'idle', timeoutMs: 2000 }, routes: 1, delivered: [], due: [], now });
 * // 'sandbox.webhooks.next({ type: "payment.succeeded" }) gave up after 2000 ms …: no such event was delivered …'
 */
export function waiterMessage(state: WaiterState): string {
  const { wanted, why } = state;
  const what = wanted.acceptedOnly
    ? 'no such event was delivered and accepted (2xx) by a handler'
    : 'no such event was delivered to a handler';
  const when =
    why.reason === 'idle'
      ? `after ${why.timeoutMs} ms of real time with the sandbox idle (awaited; no request, no clock move, nothing in flight or due now)`
      : why.reason === 'within'
        ? `at ${iso(state.now)} on the sandbox clock, past its within (${iso(why.deadline)})`
        : 'as the sandbox closed';
  return `${wanted.call} gave up ${when}: ${what}; ${delivered(state)}; ${due(state)}.`;
}

function delivered({ routes, delivered: list, wanted }: WaiterState): string {
  if (list.length === 0) {
    return routes === 0
      ? 'no handler is registered (register one with sandbox.webhooks.deliverTo)'
      : 'no delivery reached a handler yet';
  }
  const shown = list.slice(-LISTED).map((delivery) => {
    const { event, answer, taken } = delivery;
    const refused =
      wanted.acceptedOnly && !delivery.accepted ? ": not accepted; { answer: 'any' } takes it" : '';
    return `${event.type} ${event.data.object.id} at ${iso(delivery.at)} (answered ${answer}${taken ? ', taken' : ''}${refused})`;
  });
  const earlier = list.length > LISTED ? ` (and ${list.length - LISTED} earlier)` : '';
  return `delivered so far${earlier}: ${shown.join('; ')}`;
}

function due({ due: items, now }: WaiterState): string {
  if (items.length === 0) return 'nothing is due on the sandbox clock';
  const shown = items.slice(0, LISTED).map((item) => `${item.what} at ${iso(item.at)}`);
  const more = items.length > LISTED ? `; and ${items.length - LISTED} more` : '';
  return `due on the sandbox clock (now ${iso(now)}): ${shown.join('; ')}${more}: advance the clock (sandbox.clock.advance) to run them, real time does not move it`;
}

function iso(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? `${ms} ms` : date.toISOString();
}
