// The last requests of one key, as the console's inspector shows them: bounded in count and bytes.
import { requestBytes } from '../byte-sizes.js';
import { MAX_RECORDED_REQUESTS, MAX_REQUEST_LOG_BYTES } from '../limits.js';
import type { RecordedEntry } from '../request-records.js';

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
    const added = requestBytes(entry);
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
    const bytes = entry === undefined ? 0 : requestBytes(entry);
    this.bytes -= bytes;
    return bytes;
  }
}
