// This instance's heartbeat in the store: how the fleet tells an instance that died with Idempotency-Keys in flight.

/** Runs the store's `psm_beat`: alive until `now` + `aliveMs` ('' now: the server's TIME); 0 ms: stopped. */
export type Beat = (now: number | '', aliveMs: number) => Promise<unknown>;

/**
 * Keeps this instance marked alive in the store: a beat every third of `aliveMs`, each good for
 * `aliveMs`. An Idempotency-Key this instance holds in flight is taken over by another instance
 * only once its beats stopped for `aliveMs` (it was killed); `stop()` (a clean close, with no
 * request left in flight) unmarks it at once. The timer never keeps the process alive.
 *
 * @example
 * const heartbeat = new Heartbeat({ aliveMs: 5000, clock: undefined, beat });
 * await heartbeat.start(); // … at close: await heartbeat.stop();
 */
export class Heartbeat {
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly options: {
      aliveMs: number;
      /** The clock beats run on; undefined: the store server's TIME. */
      clock: (() => number) | undefined;
      beat: Beat;
    },
  ) {}

  /** Beats once (awaited: the instance is alive before it serves), then every third of `aliveMs`. */
  async start(): Promise<void> {
    await this.beat();
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      this.beat().catch(() => {});
    }, this.options.aliveMs / 3);
    this.timer.unref?.();
  }

  /** One beat now (a failed one is retried by the next). */
  beat(): Promise<unknown> {
    return this.options.beat(this.now(), this.options.aliveMs);
  }

  /** Stops beating and unmarks the instance (best effort: the store may be gone). */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.options.beat(this.now(), 0).catch(() => {});
  }

  private now(): number | '' {
    return this.options.clock === undefined ? '' : this.options.clock();
  }
}
