// Measures the replies a Valkey/Redis connection brings, before the client's parser keeps them: a reply over the bound, or not RESP2, ends the connection.

/** Open aggregates deeper than this are refused (the store's scripts nest two levels at most). */
const MAX_DEPTH = 32;
/** A length has at most this many digits (`$536870912` has 9). */
const MAX_DIGITS = 15;

const PLUS = 43;
const MINUS = 45;
const COLON = 58;
const DOLLAR = 36;
const STAR = 42;
const CR = 13;
const LF = 10;

/**
 * Follows the RESP2 stream of one connection, reply by reply, counting the bytes of the reply
 * being received, its declared bulk lengths included as soon as they are read: `feed` tells
 * when a reply would exceed `maxBytes`, or when the bytes are not RESP2 at all, before the
 * bulk's data has come. It keeps no data: the type and length of the line being read, and a
 * stack of counts.
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
  /** The type byte of the line being read; 0 between lines. */
  private type = 0;
  /** The length the line declares so far ($ and * lines). */
  private length = 0;
  private digits = 0;
  private negative = false;
  /** The line holds something a length never does. */
  private malformed = false;
  /** Elements still due in each open array, innermost last. */
  private readonly open: number[] = [];

  constructor(readonly maxBytes: number) {}

  /** Reads one chunk: undefined while the stream is within bounds, else what is wrong. */
  feed(chunk: Uint8Array): string | undefined {
    let at = 0;
    const size = chunk.length;
    while (at < size) {
      if (this.bulkLeft > 0) {
        const taken = Math.min(this.bulkLeft, size - at);
        this.bulkLeft -= taken;
        at += taken;
        if (this.bulkLeft === 0) this.elementDone();
        continue;
      }
      if (this.type === 0) {
        const type = chunk[at] as number;
        if (type !== PLUS && type !== MINUS && type !== COLON && type !== DOLLAR && type !== STAR) {
          return `a reply that is not RESP2 (it starts with byte ${type})`;
        }
        this.type = type;
        this.length = 0;
        this.digits = 0;
        this.negative = false;
        this.malformed = false;
        this.replyBytes++;
        at++;
        continue;
      }
      // Lines are short (a length, a status): a loop costs less than a call into Buffer.indexOf.
      let newline = at;
      while (newline < size && chunk[newline] !== LF) newline++;
      if (newline === size) newline = -1;
      const end = newline === -1 ? size : newline;
      if (this.type === DOLLAR || this.type === STAR) this.readLength(chunk, at, end);
      this.replyBytes += (newline === -1 ? size : newline + 1) - at;
      at = newline === -1 ? size : newline + 1;
      if (this.replyBytes > this.maxBytes) return this.over('a line');
      if (newline === -1) break;
      const problem = this.lineDone();
      this.type = 0;
      if (problem !== undefined) return problem;
    }
    return undefined;
  }

  /** Reads the digits of a length line between `from` and `to` (a CR may end it). */
  private readLength(chunk: Uint8Array, from: number, to: number): void {
    for (let index = from; index < to; index++) {
      const byte = chunk[index] as number;
      if (byte >= 48 && byte <= 57 && this.digits < MAX_DIGITS) {
        this.length = this.length * 10 + (byte - 48);
        this.digits++;
      } else if (byte === MINUS && this.digits === 0 && !this.negative) {
        this.negative = true;
      } else if (byte !== CR || index !== to - 1) {
        this.malformed = true;
      }
    }
  }

  /** A complete line (`$12`, `*3`, `:1`, `+OK`, `-ERR …`). */
  private lineDone(): string | undefined {
    const type = this.type;
    if (type === PLUS || type === MINUS || type === COLON) {
      this.elementDone();
      return undefined;
    }
    if (this.malformed || this.digits === 0) return 'a reply whose length is not a number';
    if (this.negative) {
      this.elementDone();
      return undefined;
    }
    const count = this.length;
    if (type === DOLLAR) {
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
