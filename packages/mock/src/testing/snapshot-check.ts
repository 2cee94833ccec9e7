// What reading a snapshot back shares: the problem list, strict times within the sandbox clock's range, values shown safely.
import type { FieldError } from '../shared/problems.js';
import { maskSecrets } from '../shared/secrets.js';
import type { Checked } from '../shared/validation.js';

/** The first instant a sandbox date can show: 0000-01-01T00:00:00.000Z (four-digit years). */
export const FIRST_INSTANT = Date.parse('0000-01-01T00:00:00.000Z');
/** The last instant a sandbox date can show: 9999-12-31T23:59:59.999Z. */
export const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** An ISO 8601 UTC time as `toISOString` writes it (milliseconds optional). */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** A signing key as a snapshot writes it: the base64 of 1 to 256 bytes. */
export const SIGNING_KEY = /^[A-Za-z0-9+/]{2,344}={0,2}$/;

/** The most characters of a value an error shows. */
const SHOWN_CHARACTERS = 60;

/** How the spec's validators name the value they check. */
const ROOT_SUBJECT = 'the request body';

/**
 * Every problem found in a snapshot, by path (`payments[2].payment.amount`).
 *
 * @example
 * const problems = new Problems();
 * problems.add('clock', 'clock must be an ISO 8601 time');
 * problems.errors.length; // 1
 */
export class Problems {
  readonly errors: FieldError[] = [];

  /** Adds one problem; `message` starts with the path. */
  add(param: string, message: string, code = 'invalid_value'): void {
    this.errors.push({ param, code, message });
  }

  /** Adds a schema check's problems under `where`; true when there were none. */
  check<T>(where: string, checked: Checked<T>): checked is { ok: true; value: T } {
    if (checked.ok) return true;
    for (const error of checked.errors) {
      const param = error.param === '' ? where : `${where}.${error.param}`;
      // The validators speak of a request body: here the value is the one at `where`.
      const subject = error.param === '' ? ROOT_SUBJECT : error.param;
      const message = error.message.startsWith(subject)
        ? `${param}${error.message.slice(subject.length)}`
        : `${where}: ${error.message}`;
      this.errors.push({ param, code: error.code, message });
    }
    return false;
  }
}

/**
 * A value as an error may show it: JSON, cut short, with secret keys and signing secrets masked.
 *
 * @example
 * shown('whsec_abc'); // '"whsec_***"'
 */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length > SHOWN_CHARACTERS) text = `${text.slice(0, SHOWN_CHARACTERS)}…`;
  return maskSecrets(text).replace(/whsec_[A-Za-z0-9+/=]*/g, 'whsec_***');
}

/** Where `util.inspect` (and so `console.log`) looks for an object's own rendering. */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Makes `util.inspect` (so `console.log`) show the object's `signing_key_base64` as `[hidden]`;
 * JSON still holds it. Returns the object.
 *
 * @example
 * inspect(hideSigningKey({ signing_key_base64: 'a2V5' })); // "{ signing_key_base64: '[hidden]' }"
 */
export function hideSigningKey<T extends { signing_key_base64?: string }>(holder: T): T {
  Object.defineProperty(holder, INSPECT, {
    enumerable: false,
    value: () => ({ ...holder, signing_key_base64: '[hidden]' }),
  });
  return holder;
}

/**
 * Whether a value is a plain JSON object (not an array, not null).
 *
 * @example
 * isRecord({}); // true
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a time of a snapshot: `YYYY-MM-DDThh:mm:ss(.sss)Z`, a real date, within the sandbox
 * clock's range. Returns ms epoch, or NaN after adding the problem.
 *
 * @example
 * timeOf('2026-01-01T00:00:00.000Z', 'clock', problems); // 1767225600000
 */
export function timeOf(value: unknown, param: string, problems: Problems): number {
  const ms = typeof value === 'string' && ISO_UTC.test(value) ? Date.parse(value) : Number.NaN;
  // A date that does not exist (2026-02-30) parses to another day: the round trip tells.
  const real =
    !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 19) === String(value).slice(0, 19);
  if (!real || ms < FIRST_INSTANT || ms > LAST_INSTANT) {
    problems.add(
      param,
      `${param} must be a UTC time such as 2026-01-01T00:00:00.000Z, from year 0000 to 9999; got ${shown(value)}`,
    );
    return Number.NaN;
  }
  return ms;
}

/** How a reader reads a time: ISO text in a snapshot (`timeOf`), ms epoch in a store (`storedTimeOf`). */
export type TimeReader = (value: unknown, param: string, problems: Problems) => number;

/**
 * Reads a time as a store keeps it: ms epoch, within the sandbox clock's range (the same range
 * `timeOf` holds a snapshot's times to). Returns it, or NaN after adding the problem.
 *
 * @example
 * storedTimeOf(1767225600000, 'settlesAt', problems); // 1767225600000
 */
export function storedTimeOf(value: unknown, param: string, problems: Problems): number {
  if (typeof value !== 'number' || !(value >= FIRST_INSTANT && value <= LAST_INSTANT)) {
    problems.add(
      param,
      `${param} must be a time in ms since 1970 from year 0000 to 9999; got ${shown(value)}`,
    );
    return Number.NaN;
  }
  return value;
}

/**
 * The array at `param`, or [] after adding the problem when it is not one or holds more than
 * `max` items.
 *
 * @example
 * arrayOf(snapshot.payments, 'payments', 10_000, problems);
 */
export function arrayOf(value: unknown, param: string, max: number, problems: Problems): unknown[] {
  if (!Array.isArray(value)) {
    problems.add(param, `${param} must be an array; got ${shown(value)}`);
    return [];
  }
  if (value.length > max) {
    problems.add(
      param,
      `${param} must have at most ${max} items (the sandbox's limit); got ${value.length}`,
    );
    return [];
  }
  return value;
}

/**
 * A time as a snapshot writes it: ISO 8601 UTC with milliseconds.
 *
 * @example
 * iso(0); // '1970-01-01T00:00:00.000Z'
 */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
