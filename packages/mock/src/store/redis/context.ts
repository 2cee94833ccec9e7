// What every account handle of one Redis store shares: the runner, the prefix, the limits, the clock.
import type { StoreLimits } from '../limits.js';
import type { LeaseKeeper } from './lease-keeper.js';
import type { RecordReading } from './reading.js';
import type { ScriptRunner } from './runner.js';

/** The settings of one `RedisStore`, as its account handles see them. */
export interface RedisContext {
  runner: ScriptRunner;
  /** The prefix of every key (`psm:` by default). */
  prefix: string;
  limits: StoreLimits;
  /**
   * The clock leases of delivery attempts run on (ms epoch); undefined: the store server's
   * TIME, one clock for the whole fleet.
   */
  clock: (() => number) | undefined;
  /** How long a claimed delivery attempt stays leased to its claimer without renewal (ms). */
  leaseMs: number;
  /** This instance's token, naming the leases it holds. */
  owner: string;
  /** Renews the leases this instance holds while it sends. */
  leases: LeaseKeeper;
  /** Checks every record read back (the API's and restore()'s rules); a failure is a 503. */
  reading: RecordReading;
}
