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
