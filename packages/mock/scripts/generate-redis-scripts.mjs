// CLI: builds src/generated/redis-scripts.ts from the Redis store's Lua sources
// (src/store/redis/lua/*.lua, one a script, and their includes in lua/include/), or (--check)
// fails when that file is stale. The package ships the generated module, so the ESM and
// CommonJS builds carry the scripts without reading a file at run time.
//
// A source starts with comment lines declaring what the script takes and answers:
//   --@include records payments        the includes it needs (an include may declare its own)
//   --@reply integer                   its reply: array, array?, integer, string? or array|string
//   --@arg id string the payment's id  an argument: name, type (string, number, string|number or
//                                      number|''), then what it is; ARGV after hash and generation
//   --@optional completion what it is  the arguments after it form one group, given or not
//   --@rest members string what they are  the last: any number of values
// From them this renders each script's header (KEYS and ARGV bound to the declared names: no
// source names ARGV or KEYS) and the TypeScript type of its arguments; the runner packs a call's
// named arguments in the declared order. It checks what it can before any server sees the Lua:
// every include a script calls is included, every argument declared is used, no name is taken
// twice, and it lists the TypeScript constants each script names (UPPER_CASE: rendered in front
// of it at load, see src/store/redis/scripts.ts).
//
// The generator's tests call `generateRedisScripts` in-process (one process for every case);
// `node scripts/generate-redis-scripts.mjs [--check] [--source DIR] [--target FILE]` runs it.
import { readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const REPLIES = new Set(['array', 'array?', 'integer', 'string?', 'array|string']);
const TYPES = {
  string: 'string',
  number: 'number',
  'string|number': 'string | number',
  "number|''": "number | ''",
};
const KEYWORDS = new Set(
  'and break do else elseif end false for function if in local nil not or repeat return then true until while'.split(
    ' ',
  ),
);
/** Names the generated header binds in every script. */
const HEADER_NAMES = ['base', 'prefix', 'h', 'generation'];
const HEADER = 'local base, prefix, h, generation = KEYS[1], KEYS[2], ARGV[1], ARGV[2]';
/** ARGV[1] and ARGV[2] are the account's hash and generation: declared arguments follow. */
const FIRST_ARGUMENT = 3;

/** A source file's name → text, for one folder's `.lua` files. */
function luaFiles(directory) {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.lua'))
    .sort()
    .map((name) => ({
      name: name.slice(0, -4),
      text: readFileSync(join(directory, name), 'utf8'),
    }));
}

/**
 * The identifiers of Lua code, outside comments and strings, and whether each follows a `.` or
 * `:` (a field, not a variable). Long strings and comments (`[[ ]]`) are refused: not used here.
 */
function identifiers(code, where) {
  const out = [];
  let index = 0;
  while (index < code.length) {
    const char = code[index];
    if (code.startsWith('--', index)) {
      if (/^--\[=*\[/.test(code.slice(index, index + 8)))
        throw new Error(`${where}: no long comments, please`);
      const end = code.indexOf('\n', index);
      index = end === -1 ? code.length : end;
    } else if (char === "'" || char === '"') {
      index++;
      while (index < code.length && code[index] !== char) {
        if (code[index] === '\n') throw new Error(`${where}: a string runs past its line`);
        index += code[index] === '\\' ? 2 : 1;
      }
      index++;
    } else if (char === '[' && /^\[=*\[/.test(code.slice(index, index + 8))) {
      throw new Error(`${where}: no long strings, please`);
    } else if (/[0-9]/.test(char)) {
      while (index < code.length && /[0-9a-fA-FxX.]/.test(code[index])) index++;
    } else if (/[A-Za-z_]/.test(char)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(code.slice(index))[0];
      const before = code.slice(0, index).trimEnd();
      const field = /[^.]\.$|^\.$|:$/.test(before);
      out.push({ name, field });
      index += name.length;
    } else {
      index++;
    }
  }
  return out;
}

/** The names a chunk defines at its top level (`local function name`, `local a, b =`). */
function topLevelNames(code) {
  const names = [];
  for (const line of code.split('\n')) {
    const fn = /^local function ([A-Za-z_]\w*)/.exec(line);
    if (fn) names.push(fn[1]);
    const locals = /^local ([A-Za-z_][\w, ]*?)\s*=/.exec(line);
    if (locals && !fn) names.push(...locals[1].split(',').map((name) => name.trim()));
  }
  return names;
}

/** A source's declarations (`--@…` lines) and its code without them. */
function parse({ name, text }, where) {
  const declared = {
    name,
    includes: [],
    reply: undefined,
    args: [],
    optional: undefined,
    rest: undefined,
  };
  const code = [];
  let group;
  for (const line of text.split('\n')) {
    const match = /^--@(\w+)\s*(.*)$/.exec(line);
    if (!match) {
      code.push(line);
      continue;
    }
    const [, keyword, rest] = match;
    const fail = (message) => {
      throw new Error(`${where}: ${line.trim()}: ${message}`);
    };
    if (declared.rest !== undefined) fail('nothing may follow --@rest');
    if (keyword === 'include') declared.includes.push(...rest.split(/\s+/).filter(Boolean));
    else if (keyword === 'reply') {
      if (!REPLIES.has(rest.trim())) fail(`a reply is one of ${[...REPLIES].join(', ')}`);
      declared.reply = rest.trim();
    } else if (keyword === 'arg' || keyword === 'rest') {
      const [, argName, type, description] = /^(\S+)\s+(\S+)\s*(.*)$/.exec(rest) ?? [];
      if (argName === undefined || !/^[a-z][A-Za-z0-9]*$/.test(argName))
        fail('an argument is named in camelCase');
      if (!(type in TYPES)) fail(`a type is one of ${Object.keys(TYPES).join(', ')}`);
      if (!description) fail('say what the argument is');
      const arg = { name: argName, type, description };
      if (keyword === 'rest') declared.rest = arg;
      else (group ?? declared.args).push(arg);
    } else if (keyword === 'optional') {
      if (declared.optional !== undefined) fail('one optional group a script');
      const [, groupName, description] = /^(\S+)\s*(.*)$/.exec(rest) ?? [];
      if (!groupName || !description) fail('name the group and say what it is');
      declared.optional = { name: groupName, description, args: [] };
      group = declared.optional.args;
    } else fail('unknown declaration');
  }
  if (declared.optional !== undefined && declared.optional.args.length === 0)
    throw new Error(`${where}: the optional group ${declared.optional.name} has no argument`);
  return { ...declared, code: code.join('\n').trim() };
}

/** Every include `names` need, each after those it needs, once. */
function resolve(names, includes, where, seen = [], path = []) {
  for (const name of names) {
    if (path.includes(name)) throw new Error(`${where}: includes ${[...path, name].join(' → ')}`);
    const include = includes.get(name);
    if (include === undefined) throw new Error(`${where}: no include ${name}`);
    if (seen.includes(name)) continue;
    resolve(include.includes, includes, `lua/include/${name}.lua`, seen, [...path, name]);
    seen.push(name);
  }
  return seen;
}

/** The arguments of a script in ARGV order, with the ARGV index of each. */
function positions(script) {
  const all = [...script.args, ...(script.optional?.args ?? [])];
  return all.map((arg, index) => ({ ...arg, index: FIRST_ARGUMENT + index }));
}

/** \`text\` as a TypeScript template literal. */
const quote = (text) => `\`${text.replace(/[\\`]|\$\{/g, (match) => `\\${match}`)}\``;

/** The generated module's text for the sources in `source`; throws naming the file and the rule a source breaks. */
function renderRedisScripts(source) {
  const includes = new Map(
    luaFiles(join(source, 'include')).map((file) => [
      file.name,
      parse(file, `lua/include/${file.name}.lua`),
    ]),
  );
  // Which include defines each top-level name.
  const definedBy = new Map();
  for (const [name, include] of includes) {
    for (const defined of topLevelNames(include.code)) {
      if (HEADER_NAMES.includes(defined) || definedBy.has(defined))
        throw new Error(`lua/include/${name}.lua: ${defined} is defined twice`);
      definedBy.set(defined, name);
    }
  }
  const scripts = luaFiles(source).map((file) => {
    const where = `lua/${file.name}.lua`;
    const script = parse(file, where);
    if (!/^psm_[a-z_]+$/.test(script.name)) throw new Error(`${where}: a script is named psm_…`);
    if (script.reply === undefined) throw new Error(`${where}: declare its --@reply`);
    const used = resolve(script.includes, includes, where);
    const args = positions(script);
    const bound = [...args.map((arg) => arg.name), ...(script.rest ? [script.rest.name] : [])];
    if (script.optional) bound.push(script.optional.name);
    for (const name of bound) {
      if (KEYWORDS.has(name) || HEADER_NAMES.includes(name) || definedBy.has(name))
        throw new Error(`${where}: the argument ${name} takes a name already taken`);
      if (bound.indexOf(name) !== bound.lastIndexOf(name))
        throw new Error(`${where}: ${name} is declared twice`);
    }
    const chunks = [...used.map((name) => includes.get(name)), script];
    const constants = new Set();
    for (const chunk of chunks) {
      const chunkWhere = chunk === script ? where : `lua/include/${chunk.name}.lua`;
      const names = identifiers(chunk.code, chunkWhere).filter((token) => !token.field);
      for (const { name } of names) {
        if (name === 'KEYS' || name === 'ARGV')
          throw new Error(`${chunkWhere}: names ${name}: declare the argument (--@arg) instead`);
        if (/^[A-Z][A-Z0-9_]*$/.test(name)) constants.add(name);
        const include = definedBy.get(name);
        if (include !== undefined && include !== chunk.name && !used.includes(include))
          throw new Error(
            `${chunkWhere}: calls ${name} of include ${include}, not included (--@include ${include})`,
          );
      }
      if (chunk === script) {
        const named = new Set(names.map((token) => token.name));
        for (const name of bound) {
          if (!named.has(name))
            throw new Error(`${where}: the argument ${name} is declared and never used`);
        }
      }
    }
    const lines = ['-- arguments'];
    for (const arg of args) lines.push(`local ${arg.name} = ARGV[${arg.index}]`);
    if (script.optional) {
      const firstIndex = FIRST_ARGUMENT + script.args.length;
      lines.push(`local ${script.optional.name} = ARGV[${firstIndex}] ~= nil`);
    }
    if (script.rest) {
      lines.push(
        `local ${script.rest.name} = {}`,
        `for index = ${FIRST_ARGUMENT + args.length}, #ARGV do table.insert(${script.rest.name}, ARGV[index]) end`,
      );
    }
    lines.push('-- script', script.code);
    return { ...script, used, lua: `${lines.join('\n')}\n`, constants: [...constants].sort() };
  });
  const field = (arg, optional = '') =>
    `    /** ${arg.description} */\n    ${arg.name}${optional}: ${TYPES[arg.type]};`;
  const argumentTypes = scripts.map((script) => {
    const fields = script.args.map((arg) => field(arg));
    if (script.optional) {
      const inner = script.optional.args.map((arg) => field(arg).replace(/\n {4}/g, '\n      '));
      fields.push(
        `    /** ${script.optional.description} */\n    ${script.optional.name}?: {\n  ${inner.join('\n  ')}\n    };`,
      );
    }
    if (script.rest) {
      const { name, type, description } = script.rest;
      fields.push(`    /** ${description} */\n    ${name}: readonly (${TYPES[type]})[];`);
    }
    return fields.length === 0
      ? `  ${script.name}: Record<never, never>;`
      : `  ${script.name}: {\n${fields.join('\n')}\n  };`;
  });
  const table = scripts.map((script) => {
    const entries = [
      `reply: '${script.reply}'`,
      `args: [${script.args.map((arg) => `'${arg.name}'`).join(', ')}]`,
    ];
    if (script.optional)
      entries.push(
        `optional: { name: '${script.optional.name}', args: [${script.optional.args.map((arg) => `'${arg.name}'`).join(', ')}] }`,
      );
    if (script.rest) entries.push(`rest: '${script.rest.name}'`);
    entries.push(`includes: [${script.used.map((name) => `'${name}'`).join(', ')}]`);
    entries.push(`constants: [${script.constants.map((name) => `'${name}'`).join(', ')}]`);
    entries.push(`lua: ${quote(script.lua)}`);
    return `  ${script.name}: {\n    ${entries.join(',\n    ')},\n  },`;
  });
  return `// Generated from src/store/redis/lua/ by scripts/generate-redis-scripts.mjs: do not edit.
// \`pnpm --filter @payment-service/mock generate\` rewrites it; \`generate:check\` fails when it is stale.

/** What a script's reply is at the top: an array, an integer, a string, or nil where allowed. */
export type ReplyShape = 'array' | 'array?' | 'integer' | 'string?' | 'array|string';

/** One script as generated: its Lua (the constants it names still to be rendered in front) and its declaration. */
export interface GeneratedScript {
  readonly reply: ReplyShape;
  /** Its arguments after the account's hash and generation, in ARGV order. */
  readonly args: readonly string[];
  /** The group of arguments after them, given together or not at all. */
  readonly optional?: { readonly name: string; readonly args: readonly string[] };
  /** The last argument: any number of values. */
  readonly rest?: string;
  /** The TypeScript constants it names (UPPER_CASE), rendered in front of it at load. */
  readonly constants: readonly string[];
  /** The includes it runs on, each after those it needs (\`GENERATED_INCLUDES\`). */
  readonly includes: readonly IncludeName[];
  /** Its arguments bound to their names, then its own code. */
  readonly lua: string;
}

/** The Lua every script starts with: KEYS and the account's hash and generation, by name. */
export const SCRIPT_HEADER = '${HEADER}';

/** The includes (lua/include/*.lua), by name: the helpers scripts share. */
export const GENERATED_INCLUDES = {
${[...includes].map(([name, include]) => `  ${name}: ${quote(`${include.code}\n`)},`).join('\n')}
} as const;

/** The name of one include. */
export type IncludeName = keyof typeof GENERATED_INCLUDES;

/** The named arguments of each script (after the account's hash and generation). */
export interface ScriptArguments {
${argumentTypes.join('\n')}
}

/** The store's scripts, by name. */
export const GENERATED_SCRIPTS: { readonly [name in keyof ScriptArguments]: GeneratedScript } = {
${table.join('\n')}
};
`;
}

/**
 * The generator as its CLI runs it, without exiting: `args` as on the command line; answers the
 * exit code and what it wrote to stderr. Writes (or, with `--check`, compares) the target module.
 *
 * @example
 * generateRedisScripts(['--check']); // { status: 0, stderr: '' } when the committed module is current
 */
export function generateRedisScripts(args) {
  const { values } = parseArgs({
    args,
    options: {
      check: { type: 'boolean', default: false },
      // For the generator's own tests: another tree of sources, another module.
      source: { type: 'string', default: join(root, 'src/store/redis/lua') },
      target: { type: 'string', default: join(root, 'src/generated/redis-scripts.ts') },
    },
  });
  const { source, target } = values;
  let rendered;
  try {
    rendered = renderRedisScripts(source);
  } catch (error) {
    return { status: 1, stderr: `generate-redis-scripts: ${error.message}\n` };
  }
  if (values.check) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {}
    if (current !== rendered) {
      return {
        status: 1,
        stderr: `${target} is stale: run \`pnpm --filter @payment-service/mock generate\` and commit it\n`,
      };
    }
  } else {
    writeFileSync(target, rendered);
  }
  return { status: 0, stderr: '' };
}

// Run as a command (not imported by a test).
if (
  process.argv[1] !== undefined &&
  realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  const { status, stderr } = generateRedisScripts(process.argv.slice(2));
  process.stderr.write(stderr);
  process.exitCode = status;
}
