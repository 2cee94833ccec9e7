// The request every store records for the console's inspector: what was sent and what was answered.
import { MAX_RECORDED_BODY_CHARS } from './limits.js';

/**
 * One request as recorded: what was sent and what the sandbox answered (secrets not yet masked).
 * The request path keeps only this: one object of primitive fields holding the strings the request
 * already had (its id, path, body text, the answer's text), bodies cut at 4,096 characters; the
 * masking and the shape the console reads (`service/inspector.ts`) are made when it reads. Kept
 * this way after measuring (issue 41, 2026-11-27): building it costs about 0.1 µs and 70-130 bytes
 * a request, against a create's 38 KB and 400 objects allocated (BENCHMARKS.md, stage table).
 */
export interface RecordedEntry {
  requestId: string;
  method: string;
  path: string;
  /** `null` when the connection was dropped instead of answered. */
  status: number | null;
  code: string | null;
  latencyMs: number;
  /** On the key's sandbox clock (ms epoch). */
  receivedAt: number;
  requestBody: string | null;
  responseBody: string | null;
  truncated: boolean;
}

/**
 * An entry with every field set at once, in one order: one object of one shape, with no
 * out-of-object property store (a spread or an added field costs each entry about 70 bytes more).
 *
 * @example
 * recordedEntry({ requestId: 'req_1', method: 'GET', path: '/v1/payments', status: 200, code: null, latencyMs: 1, requestBody: null, responseBody: '{}', truncated: false }, 0).receivedAt; // 0
 */
export function recordedEntry(
  entry: Omit<RecordedEntry, 'receivedAt'>,
  receivedAt: number,
): RecordedEntry {
  return {
    requestId: entry.requestId,
    method: entry.method,
    path: entry.path,
    status: entry.status,
    code: entry.code,
    latencyMs: entry.latencyMs,
    receivedAt,
    requestBody: entry.requestBody,
    responseBody: entry.responseBody,
    truncated: entry.truncated,
  };
}

/**
 * Cuts a body to `MAX_RECORDED_BODY_CHARS`.
 *
 * @example
 * clip('x'.repeat(5000)); // { text: 'xxxx…' (4096 characters), truncated: true }
 */
export function clip(text: string | null): { text: string | null; truncated: boolean } {
  if (text === null || text.length <= MAX_RECORDED_BODY_CHARS) return { text, truncated: false };
  return { text: copyOf(text.slice(0, MAX_RECORDED_BODY_CHARS)), truncated: true };
}

/**
 * A string that shares no memory with another: V8's `slice` makes a view that keeps the whole
 * original alive (a 64 KiB body behind each 4 096-character clip, an 8 KiB URL behind a path),
 * unseen by the byte budgets.
 *
 * @example
 * copyOf(url.slice(21, 40)); // the same characters, without `url` behind them
 */
export function copyOf(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
