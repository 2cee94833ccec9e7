// The last requests of one key, as the console's inspector shows them: bounded in count and bytes.
import { stringBytes } from './byte-sizes.js';

/** One request as recorded: what was sent and what the sandbox answered (secrets not yet masked). */
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

/** Requests one key's log keeps. */
export const MAX_RECORDED_REQUESTS = 50;
/** Bytes one key's log may hold; beyond it the oldest requests go first. */
export const MAX_REQUEST_LOG_BYTES = 64 * 1024;
/** Characters of a body that are kept. */
export const MAX_RECORDED_BODY_CHARS = 4096;

const ENTRY_BYTES = 256;

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
 * original alive (a 64 KiB body behind each 4 096-character clip, unseen by the byte budget).
 */
function copyOf(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

function entryBytes(entry: RecordedEntry): number {
  return (
    ENTRY_BYTES +
    stringBytes(entry.requestId) +
    stringBytes(entry.path) +
    stringBytes(entry.requestBody) +
    stringBytes(entry.responseBody)
  );
}

/**
 * A key's recent requests, oldest first, at most `MAX_RECORDED_REQUESTS` and
 * `MAX_REQUEST_LOG_BYTES` (the oldest are forgotten first). A ring: recording never moves the
 * kept entries, and reports its bytes once (the new entry's less the forgotten ones').
 *
 * @example
 * const log = new RequestLog((delta) => account.addBytes(delta));
 * log.record(entry);
 * log.newestFirst()[0] === entry; // true
 */
export class RequestLog {
  private readonly ring: (RecordedEntry | undefined)[] = new Array(MAX_RECORDED_REQUESTS).fill(
    undefined,
  );
  /** The ring index of the oldest entry. */
  private oldest = 0;
  private count = 0;
  private bytes = 0;

  constructor(private readonly onBytes: (delta: number) => void = () => {}) {}

  /** Adds a request as the newest; cannot throw. */
  record(entry: RecordedEntry): void {
    const added = entryBytes(entry);
    let delta = added;
    if (this.count === MAX_RECORDED_REQUESTS) delta -= this.forgetOldest();
    this.ring[(this.oldest + this.count) % MAX_RECORDED_REQUESTS] = entry;
    this.count += 1;
    this.bytes += added;
    while (this.count > 1 && this.bytes > MAX_REQUEST_LOG_BYTES) delta -= this.forgetOldest();
    this.onBytes(delta);
  }

  /** The recorded requests, newest first. */
  newestFirst(): RecordedEntry[] {
    const entries: RecordedEntry[] = [];
    for (let back = this.count - 1; back >= 0; back--) {
      const entry = this.ring[(this.oldest + back) % MAX_RECORDED_REQUESTS];
      if (entry !== undefined) entries.push(entry);
    }
    return entries;
  }

  get size(): number {
    return this.count;
  }

  /** Forgets the oldest entry; returns its bytes. */
  private forgetOldest(): number {
    const entry = this.ring[this.oldest];
    this.ring[this.oldest] = undefined;
    this.oldest = (this.oldest + 1) % MAX_RECORDED_REQUESTS;
    this.count -= 1;
    const bytes = entry === undefined ? 0 : entryBytes(entry);
    this.bytes -= bytes;
    return bytes;
  }
}
