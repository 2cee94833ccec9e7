// The options of `sandbox.webhooks.next()`, checked: which delivery a waiter takes, and how long it waits.
import { durationMs } from './clock.js';
import { TRIGGERABLE_EVENTS } from './triggers.js';
import type { NextEventOptions } from './types.js';

/** How long an awaited waiter waits with the sandbox idle before it gives up (real ms). */
export const DEFAULT_NEXT_TIMEOUT_MS = 2_000;

/** The longest `timeout` a timer can keep (about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

const KNOWN = ['type', 'paymentId', 'answer', 'within', 'timeout'] as const;

/** `next()`'s options as a waiter uses them. */
export interface NextWanted {
  type: string | undefined;
  paymentId: string | undefined;
  /** Whether only a delivery the handler answered 2xx counts. */
  acceptedOnly: boolean;
  /** Sandbox ms from the waiter's creation, if bounded on the sandbox clock. */
  withinMs: number | undefined;
  /** Real ms of an idle sandbox, once awaited, before it gives up. */
  timeoutMs: number;
  /** The call as an error shows it: `sandbox.webhooks.next({"type":"payment.succeeded"})`. */
  call: string;
}

/**
 * Reads `next()`'s options; a `TypeError` or `RangeError` names the option and what it takes
 * (an unknown option too: a misspelt `typ` would otherwise match every event).
 *
 * @example
 * nextWanted({ type: 'payment.succeeded', answer: 'any' }).acceptedOnly; // false
 */
export function nextWanted(options: unknown): NextWanted {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(
      `sandbox.webhooks.next(options) takes an object { ${KNOWN.join('?, ')}? }; got ${shown(options)}`,
    );
  }
  const given = options as NextEventOptions & Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!(KNOWN as readonly string[]).includes(name)) {
      throw new TypeError(
        `sandbox.webhooks.next() has no option ${JSON.stringify(name.slice(0, 40))}: use ${KNOWN.join(', ')}`,
      );
    }
  }
  const { type, paymentId, answer, within, timeout } = given;
  if (type !== undefined && !TRIGGERABLE_EVENTS.includes(type as string)) {
    throw new TypeError(
      `sandbox.webhooks.next({ type }) takes an event type, one of ${TRIGGERABLE_EVENTS.join(', ')}; got ${shown(type)}`,
    );
  }
  if (paymentId !== undefined && (typeof paymentId !== 'string' || paymentId === '')) {
    throw new TypeError(
      `sandbox.webhooks.next({ paymentId }) takes a payment id (pay_…); got ${shown(paymentId)}`,
    );
  }
  if (answer !== undefined && answer !== 'accepted' && answer !== 'any') {
    throw new TypeError(
      `sandbox.webhooks.next({ answer }) takes 'accepted' (a 2xx from your handler, the default) or 'any' (any attempt, a 500 included); got ${shown(answer)}`,
    );
  }
  if (
    timeout !== undefined &&
    (typeof timeout !== 'number' ||
      !Number.isFinite(timeout) ||
      timeout < 0 ||
      timeout > MAX_TIMEOUT_MS)
  ) {
    throw new RangeError(
      `sandbox.webhooks.next({ timeout }) takes real milliseconds from 0 to ${MAX_TIMEOUT_MS}; got ${shown(timeout)}`,
    );
  }
  const withinMs =
    within === undefined ? undefined : durationMs(within, 'sandbox.webhooks.next({ within })');
  return {
    type,
    paymentId,
    acceptedOnly: answer !== 'any',
    withinMs,
    timeoutMs: timeout ?? DEFAULT_NEXT_TIMEOUT_MS,
    call: `sandbox.webhooks.next(${callArguments(given)})`,
  };
}

/** The options as given, short (a long id is cut), for an error message. */
function callArguments(given: Record<string, unknown>): string {
  const entries = KNOWN.filter((name) => given[name] !== undefined).map((name) => {
    const value = given[name];
    return `${name}: ${typeof value === 'object' ? JSON.stringify(value) : shown(value)}`;
  });
  return entries.length === 0 ? '' : `{ ${entries.join(', ')} }`;
}

/** A value as an error message shows it: short, whatever it is. */
function shown(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}
