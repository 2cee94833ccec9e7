// Measures the replies a Valkey/Redis connection brings, before the client's parser keeps them: a reply over the bound, or not RESP2, ends the connection.

/** Open aggregates deeper than this are refused (the store's scripts nest two levels at most). */
const MAX_DEPTH = 32;
/** The longest header line kept to read a type and a length (`$536870912\r\n` is 12 bytes). */
const HEADER_CHARS = 24;

/**
 * Follows the RESP2 stream of one connection, reply by reply, counting the bytes of the reply
 * being received, its declared bulk lengths included as soon as they are read: `feed` tells
 * when a reply would exceed `maxBytes`, or when the bytes are not RESP2 at all, before the
 * bulk's data has come. It keeps no data, only a header line and a stack of counts.
 *
 * @example
 * const meter = new ReplyMeter(1 << 20);
 * meter.feed(Buffer.from('$400000000\r\n')); // 'a reply of over 1048576 bytes (a bulk of 400000000)'
 */
export class ReplyMeter {
  /** Bytes of the reply being received so far (declared bulk lengths included). */
  private replyBytes = 0;
  /** Bytes of bulk data (and its CRLF) still to skip. */
  private bulkLeft = 0;
  /** The header line being read (its first characters). */
  private header = '';
  /** Elements still due in each open array, innermost last. */
  private readonly open: number[] = [];

  constructor(readonly maxBytes: number) {}

  /** Reads one chunk: undefined while the stream is within bounds, else what is wrong. */
  feed(chunk: Uint8Array): string | undefined {
    let at = 0;
    while (at < chunk.length) {
      if (this.bulkLeft > 0) {
        const taken = Math.min(this.bulkLeft, chunk.length - at);
        this.bulkLeft -= taken;
        at += taken;
        if (this.bulkLeft === 0) this.elementDone();
        continue;
      }
      const newline = chunk.indexOf(10, at);
      const end = newline === -1 ? chunk.length : newline + 1;
      this.replyBytes += end - at;
      if (this.header.length < HEADER_CHARS) {
        this.header += Buffer.from(chunk.buffer, chunk.byteOffset + at, end - at)
          .toString('latin1')
          .slice(0, HEADER_CHARS - this.header.length);
      }
      at = end;
      if (this.replyBytes > this.maxBytes) return this.over('a line');
      if (newline === -1) break;
      const problem = this.line(this.header);
      this.header = '';
      if (problem !== undefined) return problem;
    }
    return undefined;
  }

  /** A complete header line (`$12\r\n`, `*3\r\n`, `:1\r\n`, `+OK\r\n`, `-ERR …\r\n`). */
  private line(header: string): string | undefined {
    const type = header[0];
    if (type === '+' || type === '-' || type === ':') {
      this.elementDone();
      return undefined;
    }
    if (type !== '$' && type !== '*') {
      return `a reply that is not RESP2 (it starts with ${JSON.stringify(header.slice(0, 8))})`;
    }
    const length = /^[$*](-?\d{1,18})\r?\n?$/.exec(header)?.[1];
    if (length === undefined)
      return `a reply whose length is not a number (${JSON.stringify(header.slice(0, 12))})`;
    const count = Number(length);
    if (count < 0) {
      this.elementDone();
      return undefined;
    }
    if (type === '$') {
      // The data and its CRLF: refused before any of it comes.
      if (this.replyBytes + count + 2 > this.maxBytes) return this.over(`a bulk of ${count}`);
      this.replyBytes += count + 2;
      this.bulkLeft = count + 2;
      return undefined;
    }
    // Each element takes 3 bytes at least (`:0\r\n` is 4, `+\r\n` 3).
    if (this.replyBytes + count * 3 > this.maxBytes) return this.over(`an array of ${count}`);
    if (count === 0) {
      this.elementDone();
      return undefined;
    }
    if (this.open.length >= MAX_DEPTH) return `a reply nested over ${MAX_DEPTH} levels deep`;
    this.open.push(count);
    return undefined;
  }

  /** One element is complete: so are the arrays it completes, and the reply once none is open. */
  private elementDone(): void {
    while (this.open.length > 0) {
      const last = this.open.length - 1;
      const left = (this.open[last] as number) - 1;
      if (left > 0) {
        this.open[last] = left;
        return;
      }
      this.open.pop();
    }
    this.replyBytes = 0;
  }

  private over(what: string): string {
    return `a reply of over ${this.maxBytes} bytes (${what})`;
  }
}
