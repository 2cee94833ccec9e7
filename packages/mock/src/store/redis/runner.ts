// Runs the store's scripts and commands on one client, turning client failures into the store's typed errors.
import type { Redis } from 'ioredis';
import { storeError } from './errors.js';
import { SCRIPTS, type ScriptName } from './scripts.js';

type ScriptCall = (...args: (string | number)[]) => Promise<unknown>;

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

  /** Runs one script: KEYS are the account's key and the prefix. */
  script(name: ScriptName, keys: [string, string], args: (string | number)[]): Promise<unknown> {
    return this.calls[name](...keys, ...args).catch((error: unknown) => {
      throw storeError(error, this.where);
    });
  }

  /** Runs one plain command (or a few issued in the same tick). */
  command<T>(run: () => Promise<T>): Promise<T> {
    return run().catch((error: unknown) => {
      throw storeError(error, this.where);
    });
  }
}
