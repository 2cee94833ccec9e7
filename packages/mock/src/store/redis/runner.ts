// Runs the store's scripts and commands on one client, turning client failures into the store's typed errors.
import type { Redis } from 'ioredis';
import { currentStoreBudget, type StoreBudget } from './budget.js';
import { StoreFormatError, StoreReplyError, StoreUnavailableError, storeError } from './errors.js';
import { SCRIPTS, type ScriptName } from './scripts.js';

/** What a script's reply is at the top: an array, an integer, a string, or nil where allowed. */
type ReplyShape = 'array' | 'array?' | 'integer' | 'string?' | 'array|string';

/** The reply each script returns (Lua false is nil): anything else did not come from it. */
const REPLY_SHAPES: Record<ScriptName, ReplyShape> = {
  psm_find: 'array?',
  psm_open: 'array',
  psm_payment: 'array',
  psm_list: 'array?',
  psm_payments: 'array',
  psm_create: 'array|string',
  psm_transition: 'integer',
  psm_settle: 'array',
  psm_claim_key: 'string?',
  psm_complete_key: 'integer',
  psm_forget_key: 'integer',
  psm_expire_keys: 'integer',
  psm_keys: 'array',
  psm_sweep: 'integer',
  psm_admit: 'array',
  psm_reset: 'integer',
  psm_release: 'integer',
  psm_set: 'integer',
  psm_consume_fault: 'array?',
  psm_request: 'integer',
  psm_endpoint: 'integer',
  psm_endpoint_delete: 'integer',
  psm_endpoints: 'array',
  psm_event: 'integer',
  psm_events: 'array',
  psm_log: 'integer',
  psm_enqueue: 'integer',
  psm_claim_attempt: 'array?',
  psm_finish_attempt: 'integer',
  psm_renew: 'integer',
  psm_next_attempt: 'string?',
  psm_beat: 'integer',
  psm_attempts: 'array',
};

/** Whether a reply element is what a script can return: a string, an integer, nil or an array of them. */
function isScriptValue(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string') return true;
  if (typeof value === 'number') return Number.isInteger(value);
  return Array.isArray(value) && depth < 3 && value.every((item) => isScriptValue(item, depth + 1));
}

/** Whether `reply` has the shape `shape`, its elements included. */
function hasShape(reply: unknown, shape: ReplyShape): boolean {
  switch (shape) {
    case 'array':
      return Array.isArray(reply) && isScriptValue(reply, 0);
    case 'array?':
      return reply === null || (Array.isArray(reply) && isScriptValue(reply, 0));
    case 'integer':
      return typeof reply === 'number' && Number.isInteger(reply);
    case 'string?':
      return reply === null || typeof reply === 'string';
    case 'array|string':
      return typeof reply === 'string' || (Array.isArray(reply) && isScriptValue(reply, 0));
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

  /** When each kind of failure was last logged. */
  private readonly lastLogged = new Map<string, number>();

  constructor(
    readonly client: Redis,
    /** The store's URL with its password masked, for errors. */
    readonly where: string,
    /** Where failures that are not the network's are told (without the password), once a second each. */
    private readonly log?: (line: string) => void,
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

  /**
   * Runs one script: KEYS are the account's key and the prefix (sending the held-back writes in
   * the same round trip). Within a request, the wait counts against its store budget.
   */
  script(name: ScriptName, keys: [string, string], args: (string | number)[]): Promise<unknown> {
    this.flush();
    return this.send(name, keys, args, currentStoreBudget());
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
    // Not bounded by the request that happens to send them: nobody waits on them.
    for (const call of held)
      this.send(call.name, call.keys, call.args, undefined).then(call.resolve, call.reject);
  }

  private send(
    name: ScriptName,
    keys: [string, string],
    args: (string | number)[],
    budget: StoreBudget | undefined,
  ): Promise<unknown> {
    const sent = this.calls[name](...keys, ...args).then((reply) => {
      if (hasShape(reply, REPLY_SHAPES[name])) return reply;
      throw new StoreReplyError(
        `the store at ${this.where} answered ${name} with ${typeOf(reply)}, which no script of this sandbox returns`,
      );
    });
    return (budget === undefined ? sent : budget.wait(sent)).catch((error: unknown) => {
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
