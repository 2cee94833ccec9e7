// The scripts as the server runs them: arguments packed by name where the Lua reads them, the constants and codes of TypeScript rendered in.
import { describe, expect, it } from 'vitest';
import { GENERATED_SCRIPTS } from '../../generated/redis-scripts.js';
import { QUEUED_BYTES } from '../byte-sizes.js';
import { MAX_RECORDED_REQUESTS, MAX_REQUEST_LOG_BYTES } from '../limits.js';
import { MAX_TIMELINE_STEPS } from '../records.js';
import { ACCOUNT_PARTS } from './keys.js';
import {
  FLEET,
  SCRIPT_CODES,
  SCRIPT_CONSTANTS,
  SCRIPTS,
  type ScriptArguments,
  type ScriptName,
} from './scripts.js';

const TARGET = { key: 'psm:a:hash', hash: 'hash', generation: 'gen-1' };
const NAMES = Object.keys(SCRIPTS) as ScriptName[];

/** Each name of a script's Lua bound to an ARGV index (`local name = ARGV[i]`). */
function boundArguments(lua: string): Map<string, number> {
  const bound = new Map<string, number>();
  for (const [, name, index] of lua.matchAll(/^local (\w+) = ARGV\[(\d+)\]$/gm))
    bound.set(String(name), Number(index));
  return bound;
}

/** Named arguments for `name` whose every value is the argument's own name (and its group's). */
function selfNamed(name: ScriptName): Record<string, unknown> {
  const generated = GENERATED_SCRIPTS[name];
  const args: Record<string, unknown> = Object.fromEntries(generated.args.map((arg) => [arg, arg]));
  if (generated.optional !== undefined)
    args[generated.optional.name] = Object.fromEntries(
      generated.optional.args.map((arg) => [arg, arg]),
    );
  if (generated.rest !== undefined) args[generated.rest] = ['first', 'second'];
  return args;
}

describe('the arguments of a script', () => {
  it.each(NAMES)('%s: each named argument lands in the ARGV slot its Lua reads it from', (name) => {
    const script = SCRIPTS[name];
    const argv = script.argv(TARGET, selfNamed(name));
    expect(argv.slice(0, 2)).toEqual(['hash', 'gen-1']);
    const bound = boundArguments(script.lua);
    const generated = GENERATED_SCRIPTS[name];
    const declared = [...generated.args, ...(generated.optional?.args ?? [])];
    expect([...bound.keys()]).toEqual(declared);
    for (const [arg, index] of bound) expect(argv[index - 1]).toBe(arg);
    if (generated.rest !== undefined)
      expect(argv.slice(2 + declared.length)).toEqual(['first', 'second']);
    else expect(argv).toHaveLength(2 + declared.length);
  });

  it('sends an optional group only when given, and then whole', () => {
    const create: ScriptArguments['psm_create'] = {
      id: 'pay_1',
      json: '{}',
      meta: '[]',
      settlesAt: '',
      bytes: 10,
      maxPayments: 2,
      budget: 3,
      maxRecords: 4,
      changes: '',
    };
    expect(SCRIPTS.psm_create.argv(TARGET, create)).toEqual([
      'hash',
      'gen-1',
      'pay_1',
      '{}',
      '[]',
      '',
      10,
      2,
      3,
      4,
      '',
    ]);
    const completion = { key: 'k', inFlightJson: 'a', completedJson: 'b', responseBytes: 5 };
    expect(SCRIPTS.psm_create.argv(TARGET, { ...create, completion }).slice(11)).toEqual([
      'k',
      'a',
      'b',
      5,
    ]);
    // The Lua knows the group was given by its first slot.
    expect(SCRIPTS.psm_create.lua).toContain('local completion = ARGV[12] ~= nil');
  });

  it('refuses a missing argument, or one that is neither a string nor a finite number, before anything is sent', () => {
    expect(() => SCRIPTS.psm_payment.argv(TARGET, {})).toThrow(
      'psm_payment: the argument id must be a string or a finite number',
    );
    expect(() => SCRIPTS.psm_list.argv(TARGET, { limit: Number.NaN, startingAfter: '' })).toThrow(
      'psm_list: the argument limit must be a string or a finite number',
    );
    expect(() =>
      SCRIPTS.psm_finish_attempt.argv(TARGET, { member: 'm', retry: { dueAt: 1, json: '{}' } }),
    ).toThrow('psm_finish_attempt: the argument budget must be a string or a finite number');
  });

  it('gives a fleet-wide script an empty hash and generation', () => {
    expect(SCRIPTS.psm_beat.argv(FLEET, { now: '', aliveMs: 5000, owner: 'me' })).toEqual([
      '',
      '',
      '',
      5000,
      'me',
    ]);
  });
});

describe('what a script takes from TypeScript', () => {
  it('renders the constants it names from their TypeScript values, once each', () => {
    const request = SCRIPTS.psm_request.lua;
    expect(request).toContain(`local MAX_RECORDED_REQUESTS = ${MAX_RECORDED_REQUESTS}\n`);
    expect(request).toContain(`local MAX_REQUEST_LOG_BYTES = ${MAX_REQUEST_LOG_BYTES}\n`);
    expect(SCRIPTS.psm_transition.lua).toContain(
      `local MAX_TIMELINE_STEPS = ${MAX_TIMELINE_STEPS}\n`,
    );
    expect(SCRIPTS.psm_enqueue.lua).toContain(`local QUEUED_BYTES = ${QUEUED_BYTES}\n`);
    expect(SCRIPTS.psm_reset.lua).toContain(
      `local ACCOUNT_PARTS = { ${ACCOUNT_PARTS.map((part) => `'${part}'`).join(', ')} }\n`,
    );
    for (const name of NAMES) {
      for (const constant of GENERATED_SCRIPTS[name].constants) {
        expect(SCRIPT_CONSTANTS[constant], `${name} names ${constant}`).toBeDefined();
        expect(SCRIPTS[name].lua.split(`\nlocal ${constant} = `)).toHaveLength(2);
      }
    }
  });

  it('renders each code it answers from SCRIPT_CODES, and every code is answered by some script', () => {
    expect(SCRIPTS.psm_create.lua).toContain("local CLOSED = 'CLOSED'\n");
    expect(SCRIPTS.psm_create.lua).toContain("local TAKEN = 'TAKEN'\n");
    expect(SCRIPTS.psm_open.lua).toContain("local FORMAT_REFUSED = 'PSM_FORMAT'\n");
    for (const code of Object.keys(SCRIPT_CODES)) {
      const users = NAMES.filter((name) => GENERATED_SCRIPTS[name].constants.includes(code));
      expect(users.length, `a script answers ${code}`).toBeGreaterThan(0);
    }
    expect(new Set(Object.values(SCRIPT_CODES)).size).toBe(Object.keys(SCRIPT_CODES).length);
  });

  it('names each script and its version: the name on its first line, the SHA1 of its text', () => {
    const shas = new Set(NAMES.map((name) => SCRIPTS[name].sha));
    expect(shas.size).toBe(NAMES.length);
    for (const name of NAMES) {
      expect(SCRIPTS[name].lua.startsWith(`-- ${name} (payment-service-mock, store format `)).toBe(
        true,
      );
      expect(SCRIPTS[name].sha).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  it('renders a script when it is first read, then keeps it as a plain property', () => {
    expect(NAMES).toEqual(Object.keys(GENERATED_SCRIPTS));
    const name = NAMES[0] as ScriptName;
    const first = SCRIPTS[name];
    expect(SCRIPTS[name]).toBe(first);
    expect(Object.getOwnPropertyDescriptor(SCRIPTS, name)?.value).toBe(first);
    expect(Object.keys(SCRIPTS)).toEqual(NAMES);
  });
});
