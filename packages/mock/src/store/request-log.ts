// The last requests of one key, as the console's inspector shows them: bounded in count and bytes.
import { stringBytes } from './memory.js';

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
 * `MAX_REQUEST_LOG_BYTES` (the oldest are forgotten first).
 *
 * @example
 * const log = new RequestLog((delta) => account.addBytes(delta));
 * log.record(entry);
 * log.newestFirst()[0] === entry; // true
 */
export class RequestLog {
  private readonly entries: RecordedEntry[] = [];
  private bytes = 0;

  constructor(private readonly onBytes: (delta: number) => void = () => {}) {}

  /** Adds a request as the newest; cannot throw. */
  record(entry: RecordedEntry): void {
    this.entries.push(entry);
    this.change(entryBytes(entry));
    while (
      this.entries.length > 1 &&
      (this.entries.length > MAX_RECORDED_REQUESTS || this.bytes > MAX_REQUEST_LOG_BYTES)
    ) {
      const oldest = this.entries.shift() as RecordedEntry;
      this.change(-entryBytes(oldest));
    }
  }

  /** The recorded requests, newest first. */
  newestFirst(): RecordedEntry[] {
    return [...this.entries].reverse();
  }

  get size(): number {
    return this.entries.length;
  }

  private change(delta: number): void {
    this.bytes += delta;
    this.onBytes(delta);
  }
}
