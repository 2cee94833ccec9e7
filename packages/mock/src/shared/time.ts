// Time helpers: the wire timestamp form `YYYY-MM-DDThh:mm:ssZ` and the clock abstraction.

/** A source of the current time in milliseconds since the epoch; tests pass a manual one. */
export interface Clock {
  now(): number;
}

/** The real clock, `Date.now()`. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * Formats epoch milliseconds as the spec's UTC timestamp, with no fractional seconds.
 *
 * @example
 * formatTimestamp(Date.UTC(2025, 0, 2, 3, 4, 5, 678)); // '2025-01-02T03:04:05Z'
 */
export function formatTimestamp(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second !== lastSecond) {
    lastText = `${new Date(second * 1000).toISOString().slice(0, 19)}Z`;
    lastSecond = second;
  }
  return lastText;
}

/** The last second formatted: creates under load mostly fall in the same second. */
let lastSecond = Number.NaN;
let lastText = '';

/**
 * Formats epoch milliseconds as a log line's ISO 8601 time, with milliseconds: the text of
 * `new Date(epochMs).toISOString()`, built from the second's cached text and the millisecond.
 *
 * @example
 * formatLogTime(Date.UTC(2025, 0, 2, 3, 4, 5, 6)); // '2025-01-02T03:04:05.006Z'
 */
export function formatLogTime(epochMs: number): string {
  const ms = Math.floor(epochMs);
  const second = Math.floor(ms / 1000);
  if (second !== logSecond) {
    logPrefix = `${new Date(second * 1000).toISOString().slice(0, 19)}.`;
    logSecond = second;
  }
  const milli = ms - second * 1000;
  return `${logPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

let logSecond = Number.NaN;
let logPrefix = '';
