// Every shell block of the contract's and the mock's READMEs is either run here as a user pastes it
// (in a project of its own, with the kit's bins of this checkout, ports changed to free ones) or
// marked `<!-- excerpt: why -->` on the line before its fence; and every flag any block gives
// `payment-service-mock` or `payment-service-contract` is one their --help lists.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../test-support/temporary-directory.js';
import { main } from './cli/main.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const READMES = ['packages/contract/README.md', 'packages/mock/README.md'] as const;
const BINS = {
  'payment-service-mock': join(root, 'packages/mock/bin/payment-service-mock.js'),
  'payment-service-contract': join(root, 'packages/contract/bin/payment-service-contract.js'),
} as const;

interface ShellBlock {
  readme: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  text: string;
  /** Why the block is not run, when it is marked as an excerpt. */
  excerpt?: string;
}

/** The fenced sh/bash/shell blocks of a README, each with its excerpt marker if it has one. */
function shellBlocks(readme: string): ShellBlock[] {
  const lines = readFileSync(join(root, readme), 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  for (let at = 0; at < lines.length; at++) {
    const fence = /^(`{3,})(\w*)\s*$/.exec(lines[at] as string);
    if (fence === null) continue;
    const end = lines.indexOf(fence[1] as string, at + 1);
    if (['sh', 'bash', 'shell', 'console'].includes(fence[2] as string)) {
      const marker = /^<!-- excerpt: (.+\S) -->$/.exec(lines[at - 1] ?? '');
      blocks.push({
        readme,
        line: at + 1,
        text: lines.slice(at + 1, end).join('\n'),
        ...(marker ? { excerpt: marker[1] as string } : {}),
      });
    }
    at = end;
  }
  return blocks;
}

const blocks = READMES.flatMap(shellBlocks);

/**
 * The blocks run here, by their first line: what their output must show, and what to run after
 * the block (a server it leaves running for the reader's next command is stopped).
 */
const RUNS: Array<{ first: string; expect: RegExp; after?: string; files?: string[] }> = [
  {
    // packages/contract/README.md, "Against our own sandbox, on one machine".
    first: 'npx payment-service-mock --port 4010 --quiet & MOCK=$!',
    expect: /^PASSED: every documented fact holds; every inferred check holds/m,
  },
  {
    // packages/contract/README.md, "Your own traffic": the app's `npm test` goes through the proxy.
    first: 'npx payment-service-mock --port 4010 &',
    expect: /^exit 0$/m,
    files: ['proxy-report.xml', 'traffic.har'],
  },
  {
    // packages/mock/README.md, --ready-json.
    first: 'payment-service-mock --port 0 --ready-json 2>mock.log > ready.json &',
    expect:
      /^ready: \{"url":"http:\/\/127\.0\.0\.1:\d+","key":"sk_test_\w+","webhook_secret":null\}$/m,
    after: 'until [ -s ready.json ]; do sleep 0.1; done; echo "ready: $(cat ready.json)"; kill $!',
  },
];

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

let project: string;
beforeAll(() => {
  // A merchant's project: the kit's bins in node_modules/.bin, an `npm test` that creates a
  // payment through PAYMENT_SERVICE_BASE_URL, and an npx that runs those bins (npx's own lookup
  // of installed packages is apps/package-tests' subject, from the tarballs).
  project = temporaryDirectory('readme-commands-');
  mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
  mkdirSync(join(project, 'shims'));
  for (const [name, bin] of Object.entries(BINS))
    symlinkSync(bin, join(project, 'node_modules/.bin', name));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'shop', private: true, scripts: { test: 'node shop.test.mjs' } }),
  );
  writeFileSync(
    join(project, 'shop.test.mjs'),
    `const answer = await fetch(new URL('/v1/payments', process.env.PAYMENT_SERVICE_BASE_URL), {
  method: 'POST',
  headers: { authorization: 'Bearer sk_test_shop_tests_123', 'content-type': 'application/json' },
  body: JSON.stringify({ amount: 1000, currency: 'KZT', payment_method: { type: 'token', token: 'tok_test_success' } }),
});
if (answer.status !== 201) throw new Error(\`create answered \${answer.status}\`);
`,
  );
  writeFileSync(
    join(project, 'shims/npx'),
    `#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in -y|--yes) shift ;; *) break ;; esac; done
case "$1" in
  @payment-service/contract*) name=payment-service-contract ;;
  @payment-service/mock*) name=payment-service-mock ;;
  *) name=$1 ;;
esac
shift
exec "${project}/node_modules/.bin/$name" "$@"
`,
  );
  chmodSync(join(project, 'shims/npx'), 0o755);
});

/** Runs a block with bash in a directory of its own in the project; its process group is stopped after. */
async function runBlock(text: string, cwd: string) {
  const child = spawn('bash', ['-c', text], {
    cwd,
    detached: true,
    env: {
      ...process.env,
      PATH: `${join(project, 'shims')}:${join(project, 'node_modules/.bin')}:${process.env.PATH}`,
      NO_COLOR: '1',
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // A recipe whose server never listens would wait forever in its `until` loop: stop it, and say so.
  const timer = setTimeout(() => {
    output += '\n(stopped by the test after 150 s)';
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {}
  }, 150_000);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  clearTimeout(timer);
  try {
    process.kill(-(child.pid as number), 'SIGTERM');
  } catch {}
  return { code, output };
}

describe('the shell blocks of the READMEs', () => {
  it('are found', () => {
    expect(blocks.length).toBeGreaterThan(10);
  });

  it.each(blocks.map((block) => [`${block.readme}:${block.line}`, block] as const))(
    '%s is run here or marked as an excerpt',
    (_where, block) => {
      if (block.excerpt !== undefined) return;
      const first = block.text.split('\n')[0] ?? '';
      expect(
        RUNS.some((run) => first.startsWith(run.first)),
        `${first}: a block a user would paste runs in this test, or says <!-- excerpt: why --> above its fence`,
      ).toBe(true);
    },
  );

  it.each(RUNS.map((run) => [run.first, run] as const))(
    'runs as written: %s',
    async (_first, run) => {
      const block = blocks.find((item) => item.text.split('\n')[0]?.startsWith(run.first));
      expect(block, 'the README still holds this block').toBeDefined();
      expect(block?.excerpt).toBeUndefined();
      const cwd = join(project, `run-${RUNS.indexOf(run)}`);
      mkdirSync(cwd);
      symlinkSync(join(project, 'node_modules'), join(cwd, 'node_modules'));
      writeFileSync(join(cwd, 'package.json'), readFileSync(join(project, 'package.json')));
      writeFileSync(join(cwd, 'shop.test.mjs'), readFileSync(join(project, 'shop.test.mjs')));
      // Free ports instead of the README's 4010 and 4020, which another program may hold.
      const mockPort = await freePort();
      const proxyPort = await freePort();
      const text = (block?.text ?? '')
        .replaceAll('4010', String(mockPort))
        .replaceAll('4020', String(proxyPort));
      const { code, output } = await runBlock(`${text}\n${run.after ?? ''}`, cwd);
      expect(output).toMatch(run.expect);
      expect(code, output).toBe(0);
      for (const file of run.files ?? []) expect(existsSync(join(cwd, file)), file).toBe(true);
    },
    180_000,
  );
});

describe('every flag a README block gives a bin', () => {
  const help: Record<keyof typeof BINS, string> = {
    'payment-service-mock': '',
    'payment-service-contract': '',
  };
  beforeAll(async () => {
    help['payment-service-mock'] = spawnSync(
      process.execPath,
      [BINS['payment-service-mock'], '--help'],
      { encoding: 'utf8' },
    ).stdout;
    // The contract's texts from its main() in this process: what its bin prints (the bin runs
    // main on its arguments), without four node processes each loading the whole CLI for them.
    const texts: string[] = [];
    for (const args of ['--help', 'proxy --help', 'replay --help', 'compare --help']) {
      let text = '';
      const stdout = { write: (chunk: string) => (text += chunk) };
      await main(args.split(' '), { stdout, stderr: { write: () => true }, env: {}, cwd: root });
      texts.push(text);
    }
    help['payment-service-contract'] = texts.join('\n');
  });

  it('is one its --help lists', () => {
    const unknown: string[] = [];
    for (const block of blocks) {
      // Each command line (continuations joined), from the bin's name to the end of the command.
      const text = block.text.replace(/\\\n/g, ' ');
      for (const match of text.matchAll(
        /(payment-service-mock|payment-service-contract|@payment-service\/(?:mock|contract))([^\n;&|#]*)/g,
      )) {
        const bin = (
          (match[1] as string).startsWith('@')
            ? `payment-service-${(match[1] as string).split('/')[1]}`
            : match[1]
        ) as keyof typeof BINS;
        for (const flag of (match[2] as string).match(/(?<=\s|\[)--[a-z][a-z-]*/g) ?? []) {
          if (!new RegExp(`${flag}\\b`).test(help[bin]))
            unknown.push(`${block.readme}:${block.line} ${bin} ${flag}`);
        }
      }
    }
    expect(unknown).toEqual([]);
  });

  it("the mock's CLI synopsis names every flag of its --help", () => {
    const synopsis = blocks.find((block) => block.text.startsWith('payment-service-mock [--port'));
    expect(synopsis).toBeDefined();
    const flags = new Set(help['payment-service-mock'].match(/^ {2}(--[a-z][a-z-]*)/gm) ?? []);
    expect(flags.size).toBeGreaterThan(20);
    const missing = [...flags]
      .map((flag) => flag.trim())
      .filter((flag) => !synopsis?.text.includes(flag));
    expect(missing).toEqual([]);
  });
});

describe("the mock's README", () => {
  it('says where state lives: memory, or the --data-dir or --redis-url store', () => {
    const readme = readFileSync(join(root, 'packages/mock/README.md'), 'utf8');
    const limits = readme.slice(readme.indexOf('\n## Limits'));
    expect(limits).not.toMatch(/State lives in memory only/);
    expect(limits).toMatch(/--data-dir/);
    expect(limits).toMatch(/--redis-url/);
  });
});
