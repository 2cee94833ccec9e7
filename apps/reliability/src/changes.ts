// Waiting for a condition without polling: whoever changes the state calls notify(), and waiters re-check.

/** A condition's change notifications; `until` resolves once the predicate holds. */
export interface Changes {
  /** Re-checks every waiting predicate (call after each change). */
  notify(): void;
  /** Resolves once `predicate` holds: at once, or after the `notify()` that makes it true. */
  until(predicate: () => boolean): Promise<void>;
}

/**
 * Creates a change notifier. A wait that never comes true is ended by the test's own timeout.
 *
 * @example
 * const changes = createChanges();
 * socket.on('close', () => { closed++; changes.notify(); });
 * await changes.until(() => closed === sockets.length);
 */
export function createChanges(): Changes {
  const waiters = new Set<() => void>();
  return {
    notify() {
      for (const check of [...waiters]) check();
    },
    until(predicate) {
      if (predicate()) return Promise.resolve();
      return new Promise((resolve) => {
        const check = () => {
          if (!predicate()) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
  };
}
