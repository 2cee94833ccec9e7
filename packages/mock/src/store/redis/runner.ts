// Runs the store's scripts and commands on one client, turning client failures into the store's typed errors.
import type { Redis } from 'ioredis';
import { storeError } from './errors.js';
import { SCRIPTS, type ScriptName } from './scripts.js';

type ScriptCall = (...args: (string | number)[]) => Promise<unknown>;

/**
 * How long a write held back (`later`) waits for another call to share its round trip before it
 * goes out on its own, in ms: a request's record goes with the next request's first call.
 */
export const HOLD_BACK_MS = 20;

/** Writes held back at most: past it, they go out at once (each holds a request's record). */
const MAX_HELD = 256;

/** A script call held back, and how to settle its caller's promise once sent. */
interface HeldCall {
  name: ScriptName;
  keys: [string, string];
  args: (string | number)[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The store's way to the server: each script defined once on the client (EVALSHA, with EVAL
 * once after a server restart), each failure mapped by `storeError`.
 *
 * @example
 * const runner = new ScriptRunner(client, 'redis://cache:6379');
 * await runner.script('psm_find', [accountKey, prefix], [hash, '']);
 */
export class ScriptRunner {
  private readonly calls: Record<ScriptName, ScriptCall>;
  /** Writes held back (`later`), sent with the next call or after `HOLD_BACK_MS`. */
  private held: HeldCall[] = [];
  private holdTimer: ReturnType<typeof setTimeout> | undefined;
  /** How long a held-back write waits for company (`HOLD_BACK_MS`; a test may lengthen it). */
  holdBackMs = HOLD_BACK_MS;

  constructor(
    readonly client: Redis,
    /** The store's URL with its password masked, for errors. */
    readonly where: string,
  ) {
    for (const [name, lua] of Object.entries(SCRIPTS)) {
      client.defineCommand(name, { numberOfKeys: 2, lua });
    }
    const methods = client as unknown as Record<string, ScriptCall>;
    this.calls = Object.fromEntries(
      Object.keys(SCRIPTS).map((name) => [name, (methods[name] as ScriptCall).bind(client)]),
    ) as Record<ScriptName, ScriptCall>;
  }

  /** Loads every script into the server's cache, so that the first calls take one round trip. */
  async load(): Promise<void> {
    await this.command(() =>
      Promise.all(Object.values(SCRIPTS).map((lua) => this.client.script('LOAD', lua))),
    );
  }

  /** Runs one script: KEYS are the account's key and the prefix (sending the held-back writes in the same round trip). */
  script(name: ScriptName, keys: [string, string], args: (string | number)[]): Promise<unknown> {
    this.flush();
    return this.send(name, keys, args);
  }

  /**
   * Runs one script later, in the same round trip as the next `script` or `command` (ioredis
   * pipelines the commands issued in one tick into one write), or on its own after
   * `HOLD_BACK_MS`, or at `flush()`: for a write nobody waits on (the inspector's record of a
   * request already answered). At most `maxHeld` are held; past it, the held ones go at once.
   *
   * @example
   * void runner.later('psm_request', [accountKey, prefix], [hash, generation, bytes, entryJson]);
   */
  later(name: ScriptName, keys: [string, string], args: (string | number)[]): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      this.held.push({ name, keys, args, resolve, reject });
      if (this.held.length >= MAX_HELD) {
        this.flush();
      } else if (this.holdTimer === undefined) {
        this.holdTimer = setTimeout(() => this.flush(), this.holdBackMs);
        this.holdTimer.unref?.();
      }
    });
  }

  /** Sends the held-back writes now (they share the round trip of whatever is sent in this tick). */
  flush(): void {
    if (this.holdTimer !== undefined) {
      clearTimeout(this.holdTimer);
      this.holdTimer = undefined;
    }
    if (this.held.length === 0) return;
    const held = this.held;
    this.held = [];
    for (const call of held)
      this.send(call.name, call.keys, call.args).then(call.resolve, call.reject);
  }

  private send(
    name: ScriptName,
    keys: [string, string],
    args: (string | number)[],
  ): Promise<unknown> {
    return this.calls[name](...keys, ...args).catch((error: unknown) => {
      throw storeError(error, this.where);
    });
  }

  /** Runs one plain command (or a few issued in the same tick), with the held-back writes. */
  command<T>(run: () => Promise<T>): Promise<T> {
    this.flush();
    return run().catch((error: unknown) => {
      throw storeError(error, this.where);
    });
  }
}
