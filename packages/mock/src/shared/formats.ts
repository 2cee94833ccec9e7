// The string formats the compiled validators check: ajv-formats' table, with date-time answered without regular expressions for the one shape the API writes.
import { fullFormats } from 'ajv-formats/dist/formats.js';

/** A format as ajv-formats' table gives date-time: a check and an order. */
interface CheckedFormat {
  validate(value: string): boolean;
  compare(a: string, b: string): number | undefined;
}

const DATE_TIME = fullFormats['date-time'] as CheckedFormat;

/** Days of each month of a common year (index 1 = January). */
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Offsets of the digits in `YYYY-MM-DDTHH:MM:SSZ`. */
const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];

/** The number written by the two digits at `at`. */
const twoDigits = (text: string, at: number) =>
  (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

/**
 * ajv-formats' date-time answer for a text of the API's own shape (`2026-11-27T22:40:00Z`, the
 * `Timestamp` every stored record carries), worked out from its digits; undefined for any other
 * text, which ajv-formats checks itself. The same rules: a month of 1 to 12, a day of its month
 * (29 February in leap years), 00:00:00 to 23:59:59, and the leap second 23:59:60.
 *
 * @example
 * utcSecondsDateTime('2024-02-29T23:59:60Z'); // true
 * utcSecondsDateTime('2023-02-29T00:00:00Z'); // false
 * utcSecondsDateTime('2023-02-28 00:00:00Z'); // undefined: not the shape, ajv-formats decides
 */
export function utcSecondsDateTime(text: string): boolean | undefined {
  if (
    text.length !== 20 ||
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 || // T
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58 ||
    text.charCodeAt(19) !== 90 // Z
  ) {
    return undefined;
  }
  for (const at of DIGITS) {
    const code = text.charCodeAt(at);
    if (code < 48 || code > 57) return undefined;
  }
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const dateHolds =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= (month === 2 && leap ? 29 : (DAYS[month] as number));
  const timeHolds =
    (hour <= 23 && minute <= 59 && second < 60) || (hour === 23 && minute === 59 && second < 61);
  return dateHolds && timeHolds;
}

/**
 * The formats table the generated validators use (`scripts/generate-validators.mjs`):
 * ajv-formats' full formats, date-time first tried by `utcSecondsDateTime` (its split and
 * case-insensitive expressions were a third of a stored payment's check).
 *
 * @example
 * formats['date-time'].validate('2026-11-27T22:40:00Z'); // true
 */
export const formats = {
  ...fullFormats,
  'date-time': {
    ...DATE_TIME,
    validate: (value: string): boolean =>
      (typeof value === 'string' ? utcSecondsDateTime(value) : undefined) ??
      DATE_TIME.validate(value),
  },
};
