// The Lua sources and their generator: the committed module is what lua/ generates, and a source that breaks a rule fails the generation, naming the file and the rule. The generator runs in this process (its CLI once).
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../../test-support/temporary-directory.js';
import { generateRedisScripts } from '../../../scripts/generate-redis-scripts.mjs';
import { ACCOUNT_STATE_LENGTH } from './redis-account.js';

const here = dirname(fileURLToPath(import.meta.url));
const GENERATOR = join(here, '../../../scripts/generate-redis-scripts.mjs');
const SOURCES = join(here, 'lua');
const work = temporaryDirectory('psm-lua-');

let trees = 0;

/** Generates from a copy of lua/ with `file` changed by `change`: the exit code and what it said. */
function generateWith(file: string, change: (text: string) => string) {
  const tree = join(work, `tree-${++trees}`);
  cpSync(SOURCES, tree, { recursive: true });
  const path = join(tree, file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
  return generateRedisScripts(['--source', tree, '--target', join(tree, 'out.ts')]);
}

describe('the Lua sources', () => {
  it('generate exactly the committed module (generate:check)', () => {
    expect(generateRedisScripts(['--check'])).toEqual({ status: 0, stderr: '' });
  });

  it('generate:check runs as a command, and says so when the module is stale', () => {
    const run = spawnSync(process.execPath, [GENERATOR, '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const stale = join(work, 'stale.ts');
    writeFileSync(stale, '// not what lua/ generates\n');
    expect(generateRedisScripts(['--check', '--target', stale])).toEqual({
      status: 1,
      stderr: `${stale} is stale: run \`pnpm --filter @payment-service/mock generate\` and commit it\n`,
    });
  });

  it("answer as many fields of an account's state as the TypeScript reads (ACCOUNT_STATE_LENGTH)", () => {
    const source = readFileSync(join(SOURCES, 'include/state.lua'), 'utf8');
    const answered = /\n {2}return \{(.*)\}\nend\s*$/.exec(source)?.[1];
    if (answered === undefined)
      throw new Error('state.lua no longer ends with the table it answers');
    expect(topLevelItems(answered)).toHaveLength(ACCOUNT_STATE_LENGTH);
  });

  it('generate from an unchanged copy', () => {
    expect(generateWith('psm_payment.lua', (text) => text)).toEqual({ status: 0, stderr: '' });
  });

  it.each([
    [
      'an ARGV slot counted by hand',
      'psm_payment.lua',
      (text: string) => text.replace('payments({ id })', 'payments({ id, ARGV[4] })'),
      'lua/psm_payment.lua: names ARGV: declare the argument (--@arg) instead',
    ],
    [
      'a helper called without its include',
      'psm_expire_keys.lua',
      (text: string) => text.replace('--@include records', '--@include account'),
      'lua/psm_expire_keys.lua: calls expireRecords of include records, not included (--@include records)',
    ],
    [
      'an argument declared and never used',
      'psm_payment.lua',
      (text: string) =>
        text.replace('--@reply array', '--@reply array\n--@arg unused string never read'),
      'lua/psm_payment.lua: the argument unused is declared and never used',
    ],
    [
      "an argument named as an include's helper",
      'psm_payment.lua',
      (text: string) =>
        text.replace('--@arg id string', '--@arg claim string').replace('{ id }', '{ claim }'),
      'lua/psm_payment.lua: the argument claim takes a name already taken',
    ],
    [
      'no reply declared',
      'psm_payment.lua',
      (text: string) => text.replace('--@reply array\n', ''),
      'lua/psm_payment.lua: declare its --@reply',
    ],
    [
      'an include that does not exist',
      'psm_payment.lua',
      (text: string) => text.replace('--@include payments', '--@include payment'),
      'lua/psm_payment.lua: no include payment',
    ],
    [
      'an argument of no known type',
      'psm_payment.lua',
      (text: string) => text.replace('--@arg id string', '--@arg id text'),
      "a type is one of string, number, string|number, number|''",
    ],
  ])('refuse %s', (_, file, change, message) => {
    const { status, stderr } = generateWith(file, change);
    expect(status).toBe(1);
    expect(stderr).toContain(message);
  });
});

/** The items of a Lua table constructor's body, split at its own commas (not those of calls in it). */
function topLevelItems(body: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let index = 0; index < body.length; index++) {
    const char = body[index];
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '(' || char === '{') depth++;
    else if (char === ')' || char === '}') depth--;
    else if (char === ',' && depth === 0) {
      items.push(body.slice(start, index).trim());
      start = index + 1;
    }
  }
  items.push(body.slice(start).trim());
  return items.filter((item) => item !== '');
}
