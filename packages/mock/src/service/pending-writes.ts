// Writes sent without waiting for them (the inspector's request records on a networked store), and a way to wait until they are done.

/**
 * The writes a server sent and did not wait for: each is forgotten once it settles (it never
 * rejects here: a failure counts as done). `settled()` resolves once none is left.
 *
 * @example
 * const writes = new PendingWrites();
 * writes.add(account.recordRequest(entry));
 * await writes.settled(); // the record is stored (or failed)
 */
export class PendingWrites {
  private readonly pending = new Set<Promise<void>>();

  /** Writes sent and not settled yet. */
  get size(): number {
    return this.pending.size;
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
