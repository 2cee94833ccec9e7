// The README's testing guide: every TypeScript block of "Testing your integration" runs as written, imports included (not named readme.test.ts: packers always ship README* files).
import { readFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The TypeScript blocks of one `##` section of the README, each with the `###` title above it. */
function blocksOf(title: string): { title: string; code: string }[] {
  const start = readme.indexOf(`## ${title}\n`);
  expect(start, title).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + title.length + 4);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const blocks: { title: string; code: string }[] = [];
  let heading = title;
  for (const match of section.matchAll(/^### (.*)$|```ts\n([\s\S]*?)```/gm)) {
    if (match[1] !== undefined) heading = match[1];
    else blocks.push({ title: heading, code: match[2] as string });
  }
  return blocks;
}

/**
 * The modules a snippet may import, as a reader's project resolves them: the package's own
 * entries from this source tree, the others from the workspace.
 */
const MODULES: Record<string, () => Promise<Record<string, unknown>>> = {
  '@payment-service/mock': () => import('../index.js'),
  '@payment-service/mock/testing': () => import('./index.js'),
  '@payment-service/mock/testing/msw': () => import('./msw.js'),
  '@payment-service/sdk': () => import('@payment-service/sdk'),
  'msw/node': () => import('msw/node'),
};

/** A test runner's globals as a snippet uses them (vitest's `test.extend`, jest's hooks): collected, then run. */
function runnerGlobals() {
  type Body = (context: Record<string, unknown>) => unknown;
  type Fixture = (
    context: { task: { name: string } },
    use: (value: unknown) => Promise<void>,
  ) => Promise<void>;
  const tests: { name: string; body: Body; fixtures: Record<string, Fixture> }[] = [];
  const before: (() => unknown)[] = [];
  const after: (() => unknown)[] = [];
  let current = '';
  const define = (fixtures: Record<string, Fixture>) => (name: string, body: Body) => {
    tests.push({ name, body, fixtures });
  };
  const test = Object.assign(define({}), {
    extend: (fixtures: Record<string, Fixture>) => define(fixtures),
  });
  const guideExpect = Object.assign(
    (value: unknown, message?: string) => expect(value, message),
    expect,
    {
      getState: () => ({ ...expect.getState(), currentTestName: current }),
    },
  );
  const globals = {
    test,
    it: test,
    expect: guideExpect,
    beforeEach: (hook: () => unknown) => before.push(hook),
    afterEach: (hook: () => unknown) => after.push(hook),
  };
  async function runAll(): Promise<number> {
    for (const { name, body, fixtures } of tests) {
      current = name;
      for (const hook of before) await hook();
      try {
        const context: Record<string, unknown> = {};
        const entries = Object.entries(fixtures);
        const enter = async (index: number): Promise<void> => {
          const entry = entries[index];
          if (entry === undefined) {
            await body(context);
            return;
          }
          await entry[1]({ task: { name } }, async (value) => {
            context[entry[0]] = value;
            await enter(index + 1);
          });
        };
        await enter(0);
      } finally {
        for (const hook of after) await hook();
      }
    }
    return tests.length;
  }
  return { globals, runAll };
}

/**
 * Runs one snippet as a module would: TypeScript stripped (and `await using` lowered) by esbuild,
 * each `import` read from `MODULES` (vitest's from the runner's globals), then the tests it
 * defined, if any.
 */
async function run(code: string): Promise<void> {
  const { code: javascript } = transformSync(code, {
    loader: 'ts',
    format: 'esm',
    target: 'es2022',
  });
  const { globals, runAll } = runnerGlobals();
  const modules: Record<string, Record<string, unknown>> = { vitest: globals };
  let importsVitest = false;
  const body = javascript.replace(
    /^import \{([^}]*)\} from "([^"]+)";$/gm,
    (_line, names: string, from: string) => {
      if (modules[from] === undefined && MODULES[from] === undefined)
        throw new Error(`the guide imports ${from}, which this test does not know`);
      const bindings = names
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '')
        .map((name) => name.replace(/^(\w+) as (\w+)$/, '$1: $2'));
      if (from === 'vitest') importsVitest = true;
      return `const { ${bindings.join(', ')} } = await __import(${JSON.stringify(from)});`;
    },
  );
  expect(body, 'every import of the snippet is read from a known module').not.toMatch(/^import /m);
  const load = async (from: string) =>
    modules[from] ?? (await (MODULES[from] as () => Promise<Record<string, unknown>>)());
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
  // jest's globals, unless the snippet imports its own (vitest's).
  const names = importsVitest ? [] : Object.keys(globals);
  await new AsyncFunction('__import', ...names, body)(
    load,
    ...names.map((name) => globals[name as keyof typeof globals]),
  );
  const ran = await runAll();
  if (/^\s*test\(/m.test(code)) expect(ran, 'the tests the snippet defines ran').toBeGreaterThan(0);
}

describe('the README’s testing guide', () => {
  const blocks = blocksOf('Testing your integration');

  it('has an example in every section that shows code, each importing what it uses', () => {
    expect(blocks.map((block) => block.title)).toEqual(
      expect.arrayContaining([
        'The happy path',
        'The clock',
        'Webhooks into your handler',
        'Retries after your handler fails',
        'MSW',
      ]),
    );
    // Before: the webhook and retry examples called createShop and checkout, which do not ship.
    for (const { title, code } of blocks) {
      expect(code, title).not.toMatch(/createShop|checkout\(/);
      if (/createTestSandbox\(/.test(code))
        expect(code, title).toContain("from '@payment-service/mock/testing'");
    }
  });

  it.each(blocks.map((block, index) => [`${index + 1}. ${block.title}`, block.code]))(
    'runs %s as written',
    async (_title, code) => {
      await run(code);
    },
    // The first example pays for loading the sandbox and the SDK: seconds on a busy 2-core runner.
    30_000,
  );
});
