// Runs the store's scripts and commands on one client, turning client failures into the store's typed errors.
import type { Redis } from 'ioredis';
import { currentStoreBudget, type StoreBudget } from './budget.js';
import { StoreFormatError, StoreReplyError, StoreUnavailableError, storeError } from './errors.js';
import {
  SCRIPTS,
  type Script,
  type ScriptCallArguments,
  type ScriptName,
  type ScriptTarget,
} from './scripts.js';

/** The start of the error a server answers EVALSHA with when it does not hold the script. */
const NOSCRIPT = 'NOSCRIPT';

/** Whether `error` is a server's NOSCRIPT answer (it does not hold the script asked for). */
function isNoScript(error: unknown): boolean {
  return (
    error instanceof Error && error.name === 'ReplyError' && error.message.startsWith(NOSCRIPT)
  );
}

/** Whether a reply element is what a script can return: a string, an integer, nil or an array of them. */
function isScriptValue(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string') return true;
  if (typeof value === 'number') return Number.isInteger(value);
  return Array.isArray(value) && depth < 3 && value.every((item) => isScriptValue(item, depth + 1));
}

/** Whether `reply` has the shape of `script`'s replies, its elements included. */
function hasShape(reply: unknown, script: Script): boolean {
  switch (script.reply) {
    case 'array':
      return Array.isArray(reply) && isScriptValue(reply, 0);
    case 'array?':
      return reply === null || (Array.isArray(reply) && isScriptValue(reply, 0));
    case 'integer':
      return typeof reply === 'number' && Number.isInteger(reply);
    case 'string?':
      return reply === null || typeof reply === 'string';
    case 'array|string':
      // Its string is one of the codes it answers, nothing else.
      if (typeof reply === 'string') return script.codes.has(reply);
      return Array.isArray(reply) && isScriptValue(reply, 0);
  }
}

/** Describes a reply's type for a log line, never its content. */
function typeOf(reply: unknown): string {
  if (reply === null) return 'nil';
  if (Array.isArray(reply)) return `an array of ${reply.length}`;
  if (Buffer.isBuffer(reply)) return 'bytes';
  return `a ${typeof reply}`;
}

/** The message ioredis rejects a command with when it got no reply within `commandTimeout`. */
const TIMED_OUT = 'Command timed out';

/** How often the runner logs a failure of one kind, at most (ms). */
const LOG_EVERY_MS = 1000;

/**
 * How long a write held back (`later`) waits for another call to share its round trip before it
 * goes out on its own, in ms: a request's record goes with the next request's first call.
 */
export const HOLD_BACK_MS = 20;

/** Writes held back at most: past it, they go out at once (each holds a request's record). */
const MAX_HELD = 256;

/** A script call held back, and how to settle its caller's promise once sent. */
interface HeldCall {
  script: Script;
  /** The account's hash key ('' for a fleet-wide script). */
  key: string;
  /** Its ARGV, packed when it was asked for. */
  argv: (string | number)[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** How a runner reaches its store. */
export interface ScriptRunnerOptions {
  /** The store's URL with its password masked, for errors. */
  where: string;
  /** The prefix of every key (KEYS[2] of every script). */
  prefix: string;
  /** Where failures that are not the network's are told (without the password), once a second each. */
  log?: (line: string) => void;
}

/**
 * The store's way to the server: every script loaded once by name and version (`SCRIPT LOAD`;
 * its SHA1 is its version) and run by `EVALSHA` with its named arguments packed in declared
 * order. A server that lost a script (restarted, `SCRIPT FLUSH`, failed over) answers `NOSCRIPT`:
 * the script is loaded again (once for all the calls that met it) and the call retried once.
 * Each failure is mapped by `storeError`.
 *
 * @example
 * const runner = new ScriptRunner(client, { where: 'redis://cache:6379', prefix: 'psm:' });
 * await runner.script('psm_find', { key: accountKey, hash, generation: '' }, { now: '', paymentId: '' });
 */
export class ScriptRunner {
  /** Writes held back (`later`), sent with the next call or after `HOLD_BACK_MS`. */
  private held: HeldCall[] = [];
  private holdTimer: ReturnType<typeof setTimeout> | undefined;
  /** How long a held-back write waits for company (`HOLD_BACK_MS`; a test may lengthen it). */
  holdBackMs = HOLD_BACK_MS;
  /** The loads in flight, by script: the calls that met NOSCRIPT together wait on one. */
  private readonly loading = new Map<ScriptName, Promise<void>>();
  /** How many times a script was loaded again after the server lost it. */
  reloads = 0;

  /** When each kind of failure was last logged. */
  private readonly lastLogged = new Map<string, number>();
  /** The store's URL with its password masked, for errors. */
  readonly where: string;
  private readonly prefix: string;
  private readonly log: ((line: string) => void) | undefined;

  constructor(
    readonly client: Redis,
    options: ScriptRunnerOptions,
  ) {
    this.where = options.where;
    this.prefix = options.prefix;
    this.log = options.log;
  }

  /** Loads every script into the server's cache, so that the first calls take one round trip. */
  async load(): Promise<void> {
    await this.command(() =>
      Promise.all((Object.keys(SCRIPTS) as ScriptName[]).map((name) => this.loadScript(name))),
    );
  }

  /** Loads one script (one load at a time for each), checking the server named it by its SHA1. */
  private loadScript(name: ScriptName): Promise<void> {
    const pending = this.loading.get(name);
    if (pending !== undefined) return pending;
    const script = SCRIPTS[name];
    const loaded = this.client
      .script('LOAD', script.lua)
      .then((sha) => {
        if (sha !== script.sha) {
          throw new StoreReplyError(
            `the store at ${this.where} answered SCRIPT LOAD of ${name} with ${typeof sha === 'string' ? 'another hash' : typeOf(sha)}, which no Valkey/Redis server does`,
          );
        }
      })
      .finally(() => this.loading.delete(name));
    this.loading.set(name, loaded);
    return loaded;
  }

  /**
   * Runs one script on `target` (an account, or `FLEET`) with its named arguments, sending the
   * held-back writes in the same round trip. Within a request, the wait counts against its store
   * budget.
   */
  script<N extends ScriptName>(
    name: N,
    target: ScriptTarget,
    ...args: ScriptCallArguments<N>
  ): Promise<unknown> {
    this.flush();
    const script = SCRIPTS[name];
    let argv: (string | number)[];
    try {
      argv = script.argv(target, args[0]);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.send(script, target.key, argv, currentStoreBudget());
  }

  /**
   * Runs one script later, in the same round trip as the next `script` or `command` (ioredis
   * pipelines the commands issued in one tick into one write), or on its own after
   * `HOLD_BACK_MS`, or at `flush()`: for a write nobody waits on (the inspector's record of a
   * request already answered). At most `maxHeld` are held; past it, the held ones go at once.
   *
   * @example
   * void runner.later('psm_request', account, { bytes, entry: entryJson });
   */
  later<N extends ScriptName>(
    name: N,
    target: ScriptTarget,
    ...args: ScriptCallArguments<N>
  ): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      const script = SCRIPTS[name];
      // Packed now: the call is made with the target and arguments of now.
      const argv = script.argv(target, args[0]);
      this.held.push({ script, key: target.key, argv, resolve, reject });
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
    // Not bounded by the request that happens to send them: nobody waits on them.
    for (const call of held)
      this.send(call.script, call.key, call.argv, undefined).then(call.resolve, call.reject);
  }

  /** Sends one script call (EVALSHA; on NOSCRIPT, loads it and retries once) and checks its reply's type. */
  private send(
    script: Script,
    key: string,
    argv: (string | number)[],
    budget: StoreBudget | undefined,
  ): Promise<unknown> {
    const run = () => this.client.evalsha(script.sha, 2, key, this.prefix, ...argv);
    const sent = run()
      .catch((error: unknown) => {
        if (!isNoScript(error)) throw error;
        // The server lost it (restart, SCRIPT FLUSH, failover): nothing ran; load it, retry once.
        this.reloads++;
        this.tell(
          'reload',
          `store: ${this.where}: the server no longer held the script ${script.name} (restarted, flushed or failed over?): it is loaded again`,
        );
        return this.loadScript(script.name).then(run);
      })
      .then((reply) => {
        if (hasShape(reply, script)) return reply;
        throw new StoreReplyError(
          `the store at ${this.where} answered ${script.name} with ${typeOf(reply)}, which no script of this sandbox returns`,
        );
      });
    return (budget === undefined ? sent : budget.wait(sent)).catch((error: unknown) => {
      if (isNoScript(error)) {
        // Lost again right after it was loaded: not a server this sandbox can run on now.
        error = new StoreUnavailableError(
          `the store at ${this.where} lost the script ${script.name} again right after loading it`,
          { cause: error },
        );
      }
      throw this.failed(error);
    });
  }

  /**
   * Runs one plain command (or a few issued in the same tick), with the held-back writes;
   * within a request, the wait counts against its store budget.
   */
  command<T>(run: () => Promise<T>): Promise<T> {
    this.flush();
    const budget = currentStoreBudget();
    const sent = run();
    return (budget === undefined ? sent : budget.wait(sent)).catch((error: unknown) => {
      throw this.failed(error);
    });
  }

  /**
   * The store's error for a failed call, after what the failure calls for: a command that got
   * no reply in time, or a reply no script returns, ends the connection (the replies still due
   * on it can no longer be matched to their commands) and a new one is made; each failure that
   * is not the network's is logged.
   */
  private failed(error: unknown): Error {
    const mapped = storeError(error, this.where);
    if (error instanceof Error && error.message === TIMED_OUT) {
      this.dropConnection();
      this.tell(
        'timeout',
        `store: ${this.where}: a command got no reply in time: the connection is dropped and made again`,
      );
    } else if (mapped instanceof StoreReplyError) {
      this.dropConnection();
      this.tell('reply', `store: ${mapped.message}: the connection is dropped and made again`);
    } else if (mapped instanceof StoreFormatError) {
      this.tell(
        'format',
        `store: ${this.where}: ${mapped.message} (another version of the sandbox writes under this prefix); requests answer 503 store_unavailable`,
      );
    } else if (!(mapped instanceof StoreUnavailableError)) {
      this.tell('refused', `store: ${this.where}: a command failed: ${mapped.message}`);
    }
    return mapped;
  }

  /** Ends the connection (its commands fail at once) and makes a new one. */
  private dropConnection(): void {
    if (this.client.status === 'ready' || this.client.status === 'connect') {
      this.client.disconnect(true);
    }
  }

  /** Logs `line`, at most once a second for each kind. */
  private tell(kind: string, line: string): void {
    const now = Date.now();
    if (this.log === undefined || now - (this.lastLogged.get(kind) ?? 0) < LOG_EVERY_MS) return;
    this.lastLogged.set(kind, now);
    this.log(line);
  }
}
