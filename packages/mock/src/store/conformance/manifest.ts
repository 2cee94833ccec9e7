// What each store of the mock supports and where it differs, read by the conformance suite; and the safety tests of one store alone, listed here though they stay beside it.

/** A test of one store alone that stays where it is: the suite checks that it still exists. */
export interface SafetyTest {
  /** What it guards, in a few words. */
  concern: string;
  /** The name of the test file that holds it (anywhere under src/: a move keeps it listed). */
  file: string;
  /** A `describe` or `it` title that file holds. */
  title: string;
}

/**
 * A store's manifest (the suite's `supports`): every flag is a real difference, tested both
 * ways; nothing in it skips a test.
 */
export interface StoreManifest {
  /** The store's name in test titles. */
  store: 'memory' | 'data-dir' | 'redis';
  /**
   * Whether a new server on the same store answers as the old one did (a restart on the data
   * directory, another instance of a Valkey/Redis fleet). In memory the data goes with the server.
   */
  durable: boolean;
  /**
   * Who may serve the store at once: each server its own store (memory), one server at a time
   * (the data directory's lock refuses a second, in this process or another), or a fleet of
   * servers answering as one (Valkey/Redis).
   */
  sharing: 'none' | 'one server at a time' | 'a fleet';
  /**
   * The clock by which a key counts as idle (forgotten first when the sandbox is full): the
   * server's injected clock, or the store server's own time (Valkey/Redis `TIME`, the same for
   * every instance of a fleet, so a test's injected clock does not make a key idle there).
   */
  idleClock: 'server' | 'store';
  /**
   * What makes this store answer `503 store_unavailable` to a request that is otherwise good:
   * nothing (memory), a disk that refuses writes, an unreachable or misbehaving server. Tested
   * where the fault can be made (see `safetyTests`).
   */
  unavailableWhen: 'never' | 'disk refuses writes' | 'server unreachable or misbehaving';
  /** The tests of this store alone: crafted journals, the lock race, hostile replies. */
  safetyTests: readonly SafetyTest[];
}

/** The memory store: the reference every other store answers like. */
export const MEMORY_MANIFEST: StoreManifest = {
  store: 'memory',
  durable: false,
  sharing: 'none',
  idleClock: 'server',
  unavailableWhen: 'never',
  safetyTests: [
    {
      concern: 'caps and byte budgets at the store, idle keys forgotten, never an active one',
      file: 'memory-store.test.ts',
      title:
        'refuses new work past the memory budget, forgetting idle keys (logged) but never active ones',
    },
    {
      concern: 'a reset while a create is in flight',
      file: 'reset-in-flight.test.ts',
      title: 'a reset while a create is in flight',
    },
    {
      concern: 'all-or-nothing operations under injected failures',
      file: 'all-or-nothing.test.ts',
      title: 'all-or-nothing operations under injected failures',
    },
  ],
};

/** The data directory: memory plus a journal replayed at start-up. */
export const DATA_DIR_MANIFEST: StoreManifest = {
  store: 'data-dir',
  durable: true,
  sharing: 'one server at a time',
  idleClock: 'server',
  unavailableWhen: 'disk refuses writes',
  safetyTests: [
    {
      concern: 'crafted journals: a record that passes its checksum but not the checks',
      file: 'journal-records.test.ts',
      title: 'a journal line whose checksum holds and whose record does not',
    },
    {
      concern: 'crafted journals: corrupt before its end, unknown kinds, wrong types',
      file: 'data-directory.test.ts',
      title:
        'refuses a change of an unknown kind, or with wrong types, naming the file and its offset, leaving the journal as it was',
    },
    {
      concern: 'a torn step: a capture comes back with its Idempotency-Key record, or neither does',
      file: 'data-directory.test.ts',
      title:
        'drops the whole of a step cut short: a capture comes back with its Idempotency-Key record, or neither does',
    },
    {
      concern: 'the lock race: two processes taking over a dead owner',
      file: 'lock.test.ts',
      title: 'two processes racing on the lock of a dead owner',
    },
    {
      concern: 'a full disk: 503 store_unavailable, no event, service resumes',
      file: 'disk-full.test.ts',
      title:
        'answers 503 store_unavailable with Retry-After, sends no event for the change, and resumes when space returns',
    },
  ],
};

/** Valkey/Redis: a fleet's shared store, reached over the network. */
export const REDIS_MANIFEST: StoreManifest = {
  store: 'redis',
  durable: true,
  sharing: 'a fleet',
  idleClock: 'store',
  unavailableWhen: 'server unreachable or misbehaving',
  safetyTests: [
    {
      concern: 'hostile replies: oversized, wrong types, unasked, another format',
      file: 'hostile.test.ts',
      title: 'replies a Valkey/Redis server never sends',
    },
    {
      concern: 'a value under the prefix that fails the record checks',
      file: 'record-reading.test.ts',
      title: 'a value under the prefix that fails the checks',
    },
    {
      concern: 'a store that hangs or is slow: 503 within the budget, service resumes',
      file: 'redis-faults.test.ts',
      title: 'a sandbox on a store that stops answering with its connections open',
    },
    {
      concern:
        'the fleet race: a reset landing during a create keeps the payment and its answer together',
      file: 'redis-fleet.test.ts',
      title:
        'keeps a payment and its Idempotency-Key answer together whenever a reset lands during the create',
    },
    {
      concern: 'round trips per request',
      file: 'redis-round-trips.test.ts',
      title: 'round trips to the store per request, through the whole server',
    },
  ],
};
