// The store's Lua scripts as the server runs them: each script of lua/ (generated into
// src/generated/redis-scripts.ts) with the TypeScript constants it names rendered in front.
import { createHash } from 'node:crypto';
import {
  GENERATED_INCLUDES,
  GENERATED_SCRIPTS,
  type ReplyShape,
  SCRIPT_HEADER,
  type ScriptArguments,
} from '../../generated/redis-scripts.js';
import { ACCOUNT_BYTES, QUEUED_BYTES } from '../byte-sizes.js';
import {
  MAX_EVENTS_PER_KEY,
  MAX_LOG_ENTRIES_PER_KEY,
  MAX_QUEUED_PER_KEY,
  MAX_RECORDED_REQUESTS,
  MAX_REQUEST_LOG_BYTES,
} from '../limits.js';
import { MAX_TIMELINE_STEPS } from '../records.js';
import { ACCOUNT_PARTS, STORE_FORMAT } from './keys.js';

export type { ReplyShape, ScriptArguments } from '../../generated/redis-scripts.js';

/** The name of one script (`lua/<name>.lua`). */
export type ScriptName = keyof ScriptArguments;

/** How long a reset or forgotten account's generation is remembered, so late writes change nothing (ms). */
export const TOMBSTONE_MS = 60_000;

/** Idle accounts one script forgets at most to make room (the next call goes on). */
export const MAX_FORGOTTEN_PER_CALL = 100;

/**
 * What a script answers instead of its result, and the error it raises: one table, rendered into
 * every script that names one (as a Lua constant of the same name) and compared against here.
 *
 * @example
 * if (answer === SCRIPT_CODES.CLOSED) account.closed = true;
 */
export const SCRIPT_CODES = {
  /** The account was reset or released since the handle read it: the write changed nothing. */
  CLOSED: 'CLOSED',
  /** The Idempotency-Key was taken over by another instance (this one presumed dead): nothing made. */
  TAKEN: 'TAKEN',
  /** `psm_create` made nothing: the key holds a payment with this id (draw another). */
  ID_HELD: 'ID_HELD',
  /** `psm_open` did not claim the key asked (the clock offset moved, or a fault is armed). */
  SKIPPED: 'SKIPPED',
  /** `psm_open` was asked no claim. */
  NONE: 'NONE',
  /** The error `psm_open` raises on keys of another store format (read by `storeError`). */
  FORMAT_REFUSED: 'PSM_FORMAT',
} as const;

/**
 * Every constant a script may name, rendered in front of it when the module loads (not passed
 * with each call): they are this build's, fixed, and each call stays as short as its own
 * arguments. A script's text, and so its SHA1, changes with them: two builds of the sandbox with
 * different constants sharing one server never run each other's script. The limits a store is
 * configured with (`StoreLimits`: budgets, caps, idle time) vary per store and are passed with
 * each call as named arguments.
 */
export const SCRIPT_CONSTANTS: Readonly<Record<string, number | string | readonly string[]>> = {
  ACCOUNT_BYTES,
  ACCOUNT_PARTS,
  MAX_EVENTS_PER_KEY,
  MAX_FORGOTTEN_PER_CALL,
  MAX_LOG_ENTRIES_PER_KEY,
  MAX_QUEUED_PER_KEY,
  MAX_RECORDED_REQUESTS,
  MAX_REQUEST_LOG_BYTES,
  MAX_TIMELINE_STEPS,
  QUEUED_BYTES,
  TOMBSTONE_MS,
  ...SCRIPT_CODES,
};

/** Where a script runs: the account's hash key, hash and generation ('' for none). */
export interface ScriptTarget {
  readonly key: string;
  readonly hash: string;
  readonly generation: string;
}

/** The target of a fleet-wide script (no account). */
export const FLEET: ScriptTarget = { key: '', hash: '', generation: '' };

/** One script as loaded on the server: its Lua, its SHA1 (its version), its reply and arguments. */
export interface Script {
  readonly name: ScriptName;
  readonly lua: string;
  readonly sha: string;
  readonly reply: ReplyShape;
  /** The codes it may answer (`SCRIPT_CODES` values): the only strings an `array|string` reply holds. */
  readonly codes: ReadonlySet<string>;
  /** Its ARGV for a call: the target's hash and generation, then the named arguments in declared order. */
  argv(target: ScriptTarget, args: object | undefined): (string | number)[];
}

/** A constant as Lua source. */
function luaValue(name: string, value: number | string | readonly string[]): string {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`${name} is not an integer: ${value}`);
    return String(value);
  }
  if (typeof value === 'string') return `'${value.replace(/[\\']/g, '\\$&')}'`;
  return `{ ${value.map((item) => luaValue(name, item)).join(', ')} }`;
}

/** One argument's value as sent: a string, or a finite number. */
function argument(name: ScriptName, arg: string, value: unknown): string | number {
  if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))
    return value;
  throw new TypeError(`${name}: the argument ${arg} must be a string or a finite number`);
}

/** `name`'s Lua with its constants, its SHA1 and how its arguments are packed. */
function renderScript(name: ScriptName): Script {
  const generated = GENERATED_SCRIPTS[name];
  const lines = [`-- ${name} (payment-service-mock, store format ${STORE_FORMAT})`];
  for (const constant of generated.constants) {
    const value = SCRIPT_CONSTANTS[constant];
    if (value === undefined)
      throw new Error(`lua/${name}.lua names ${constant}, which SCRIPT_CONSTANTS does not hold`);
    lines.push(`local ${constant} = ${luaValue(constant, value)}`);
  }
  lines.push(SCRIPT_HEADER);
  for (const include of generated.includes)
    lines.push(`-- include ${include}`, GENERATED_INCLUDES[include]);
  const lua = `${lines.join('\n')}\n${generated.lua}`;
  const { args, optional, rest } = generated;
  return {
    name,
    lua,
    sha: createHash('sha1').update(lua).digest('hex'),
    reply: generated.reply,
    codes: new Set(
      generated.constants
        .filter((constant) => Object.hasOwn(SCRIPT_CODES, constant))
        .map((constant) => SCRIPT_CODES[constant as keyof typeof SCRIPT_CODES]),
    ),
    argv(target, named = {}) {
      const given = named as Record<string, unknown>;
      const out: (string | number)[] = [target.hash, target.generation];
      for (const arg of args) out.push(argument(name, arg, given[arg]));
      const group = optional === undefined ? undefined : given[optional.name];
      if (optional !== undefined && group !== undefined) {
        for (const arg of optional.args)
          out.push(argument(name, arg, (group as Record<string, unknown>)[arg]));
      }
      if (rest !== undefined)
        for (const value of given[rest] as unknown[]) out.push(argument(name, rest, value));
      return out;
    },
  };
}

/**
 * Every script as the server runs it, by name. Each is rendered (and its SHA-1 taken) the first
 * time it is read, then kept as a plain property: a start without --redis-url renders none (all
 * of them took about 5 ms of CPU at every start).
 *
 * @example
 * await client.evalsha(SCRIPTS.psm_find.sha, 2, key, prefix, ...SCRIPTS.psm_find.argv(FLEET, { now: '', paymentId: '' }));
 */
export const SCRIPTS: Readonly<Record<ScriptName, Script>> = Object.defineProperties(
  {},
  Object.fromEntries(
    (Object.keys(GENERATED_SCRIPTS) as ScriptName[]).map((name) => [
      name,
      {
        enumerable: true,
        configurable: true,
        get(this: Record<ScriptName, Script>): Script {
          const script = renderScript(name);
          Object.defineProperty(this, name, { value: script, enumerable: true });
          return script;
        },
      },
    ]),
  ),
) as Record<ScriptName, Script>;

/** The arguments a call of `name` takes: none, or its named arguments. */
export type ScriptCallArguments<N extends ScriptName> =
  Record<never, never> extends ScriptArguments[N]
    ? [args?: ScriptArguments[N]]
    : [args: ScriptArguments[N]];
