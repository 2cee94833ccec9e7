// Writes sent without waiting for them (the inspector's request records on a networked store), and a way to wait until they are done.

/**
 * Writes a server keeps in flight at most: while a slow or unreachable store holds this many, the
 * next are not sent (each holds a request's clipped bodies, up to ~8 KiB: at most ~8 MiB).
 */
export const MAX_PENDING_WRITES = 1_000;

/**
 * The writes a server sent and did not wait for, at most `max` at a time: each is forgotten once
 * it settles (it never rejects here: a failure counts as done). `settled()` resolves once none is
 * left.
 *
 * @example
 * const writes = new PendingWrites();
 * if (!writes.full) account.recordRequest(entry, writes); // a write the store holds back
 * await writes.settled(); // the record is stored (or failed)
 */
export class PendingWrites {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly max = MAX_PENDING_WRITES) {}

  /** Writes sent and not settled yet. */
  get size(): number {
    return this.pending.size;
  }

  /** Whether `max` writes are in flight: the caller sends no more until some settle. */
  get full(): boolean {
    return this.pending.size >= this.max;
  }

  /** Keeps a write until it settles. */
  add(write: Promise<unknown>): void {
    const done: Promise<void> = write.then(
      () => {
        this.pending.delete(done);
      },
      () => {
        this.pending.delete(done);
      },
    );
    this.pending.add(done);
  }

  /**
   * Resolves once every write added before this call has settled (not those added meanwhile:
   * under steady load there always are some, and a reader must not wait for ever).
   */
  async settled(): Promise<void> {
    if (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
