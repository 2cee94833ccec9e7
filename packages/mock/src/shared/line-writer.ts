// Batches log lines into one write per turn of the event loop, so logging costs no syscall per request.

/** Something lines can be written to, such as `process.stdout`. */
export interface LineSink {
  write(chunk: string): unknown;
}

/** A logger function plus `flush()` for shutdown. */
export interface LineWriter {
  (line: string): void;
  /** Writes what is pending now. */
  flush(): void;
}

/**
 * Creates a line logger that queues lines and writes them to `sink` together, once per turn of the
 * event loop (setImmediate), in order.
 *
 * @example
 * const log = createLineWriter(process.stdout);
 * log('POST /v1/payments 201 2ms req_abc');
 * process.on('exit', () => log.flush());
 */
export function createLineWriter(sink: LineSink): LineWriter {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const chunk = `${pending.join('\n')}\n`;
    pending = [];
    sink.write(chunk);
  };
  const writer = ((line: string) => {
    pending.push(line);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  }) as LineWriter;
  writer.flush = flush;
  return writer;
}

/**
 * The given logger, its throws swallowed: a log line is a view, so a logger that fails (a test's
 * spy, a closed stream) never fails a request after its change was made, nor rejects in the
 * webhook dispatcher or the store, where nothing would catch it.
 *
 * @example
 * neverThrowing(() => { throw new Error('closed'); })('GET /v1/payments 200'); // undefined
 */
export function neverThrowing(logger: (line: string) => void): (line: string) => void {
  return (line) => {
    try {
      logger(line);
    } catch {
      // The line is lost; nothing else is.
    }
  };
}
