// `npm run compare:proxy`: the same SDK-like traffic through Prism's proxy (with --errors and without) and through ours, in front of a mock that drifts one documented fact; prints what each reported, side by side, in Markdown.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startDriftProxy } from '@payment-service/contract/drift';
import { startMockServer } from '@payment-service/mock/node';
import { benchDirectory, ownChild, removeBenchDirectory } from '../owned.js';
import { SPEC_PATH } from '../paths.js';
import { ensurePrism } from '../prism.js';
import { freePort } from '../servers.js';
import {
  markdownTable,
  newFailures,
  prismCell,
  prismSegments,
  type ReportedCheck,
} from './table.js';
import { type Answer, EXCHANGES, sendExchange, TEST_KEY } from './traffic.js';

/** The drift the target plants: SUCCEEDED answered as COMPLETED (documented in §3). */
const DRIFT = 'completed-instead-of-succeeded';
const require = createRequire(import.meta.url);
const contractManifest = require.resolve('@payment-service/contract/package.json');
const contract = JSON.parse(await readFile(contractManifest, 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};
const CONTRACT_BIN = join(
  dirname(contractManifest),
  contract.bin['payment-service-contract'] as string,
);

/** A child process with its output kept. */
interface Child {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` in the output (30 s at most). */
  waitFor(pattern: RegExp, count?: number): Promise<RegExpMatchArray>;
}

function start(args: string[], cwd?: string): Child {
  const child = ownChild(spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] }));
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    output: () => output,
    exited,
    async waitFor(pattern, count = 1) {
      const global = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
      for (let waited = 0; waited < 30_000; waited += 20) {
        const matches = [...output.matchAll(global)];
        if (matches.length >= count) return matches[count - 1] as RegExpMatchArray;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no ${pattern} in the output of ${args.join(' ')}:\n${output}`);
    },
  };
}

async function stop(child: Child): Promise<number | null> {
  if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGTERM');
  const timer = setTimeout(() => child.child.kill('SIGKILL'), 10_000);
  const code = await child.exited;
  clearTimeout(timer);
  return code;
}

/** Makes a SUCCEEDED payment directly on the mock (not through a proxy) for the drifting retrieve. */
async function seedSucceeded(mockUrl: string): Promise<string> {
  const response = await fetch(`${mockUrl}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: 1000,
      currency: 'KZT',
      capture: true,
      payment_method: { type: 'token', token: 'tok_test_success' },
    }),
  });
  const body = (await response.json()) as { id: string; status: string };
  if (body.status !== 'SUCCEEDED') throw new Error(`the seed payment is ${body.status}`);
  return body.id;
}

interface PrismRun {
  answers: Answer[];
  segments: string[][];
  /** Prism's exit code at SIGTERM (null: ended by the signal). */
  exitCode: number | null;
  /** The files Prism left in its (fresh) working directory. */
  files: string[];
}

/** Prism's proxy in front of `upstream` with `flags`, sent the traffic, then stopped. */
async function prismRun(
  entry: string,
  upstream: string,
  flags: string[],
  id: string,
): Promise<PrismRun> {
  const port = await freePort();
  const cwd = benchDirectory('proxy-compare-prism-');
  const prism = start(
    [entry, 'proxy', SPEC_PATH, upstream, '--host', '127.0.0.1', '--port', String(port), ...flags],
    cwd,
  );
  try {
    await prism.waitFor(/Prism is listening/);
    const answers: Answer[] = [];
    for (const exchange of EXCHANGES)
      answers.push(await sendExchange(`http://127.0.0.1:${port}`, exchange, id));
    await prism.waitFor(/Request received/, EXCHANGES.length);
    const exitCode = await stop(prism);
    const files = await readdir(cwd);
    return { answers, segments: prismSegments(prism.output()), exitCode, files };
  } finally {
    await stop(prism);
    removeBenchDirectory(cwd);
  }
}

interface OurReport {
  checks: ReportedCheck[];
  traffic: { exchanges: number; liveKeysRefused: number; undeclaredRoutes: number };
  summary?: unknown;
}

async function ourRun(upstream: string, id: string) {
  const cwd = benchDirectory('proxy-compare-');
  const ours = start(
    [
      CONTRACT_BIN,
      'proxy',
      '--target',
      upstream,
      '--port',
      '0',
      '--report',
      'json:report.json',
      '--report',
      'markdown:report.md',
    ],
    cwd,
  );
  try {
    const [, url] = await ours.waitFor(/proxy (http:\/\/127\.0\.0\.1:\d+) →/);
    const readReport = async () =>
      JSON.parse(await readFile(join(cwd, 'report.json'), 'utf8')) as OurReport;
    const answers: Answer[] = [];
    const failures: string[][] = [];
    const refused: number[] = [];
    let before: OurReport = {
      checks: [],
      traffic: { exchanges: 0, liveKeysRefused: 0, undeclaredRoutes: 0 },
    };
    for (const [index, exchange] of EXCHANGES.entries()) {
      answers.push(await sendExchange(url as string, exchange, id));
      ours.child.kill('SIGUSR2');
      await ours.waitFor(/wrote the json report/, index + 1);
      const after = await readReport();
      failures.push(newFailures(before.checks, after.checks));
      refused.push(after.traffic.liveKeysRefused - before.traffic.liveKeysRefused);
      before = after;
    }
    const exitCode = await stop(ours);
    const markdown = await readFile(join(cwd, 'report.md'), 'utf8');
    const final = await readReport();
    return { answers, failures, refused, exitCode, markdown, final, output: ours.output() };
  } finally {
    await stop(ours);
    removeBenchDirectory(cwd);
  }
}

/** How a process ended: its code, or the signal. */
const exited = (code: number | null) =>
  code === null ? 'ended by the signal (no exit code)' : `exited ${code}`;

function ourCell(answer: Answer, failures: readonly string[], refused: number): string {
  const parts = [`HTTP ${answer.status}`];
  parts.push(failures.length > 0 ? `failed: ${failures.join(' / ')}` : 'no failed check');
  if (refused > 0) parts.push('counted as refused for an sk_live_ key (never forwarded)');
  return parts.join('; ');
}

async function main() {
  const prism = ensurePrism(true);
  if (prism === undefined) throw new Error('Prism could not be installed');
  const mock = await startMockServer({ port: 0 });
  const drifted = await startDriftProxy({ upstreamUrl: mock.url, drifts: [DRIFT] });
  try {
    const id = await seedSucceeded(mock.url);
    const withErrors = await prismRun(prism.entry, drifted.url, ['--errors'], id);
    const plain = await prismRun(prism.entry, drifted.url, [], id);
    const ours = await ourRun(drifted.url, id);
    const rows = EXCHANGES.map((exchange, index) => [
      `${index + 1}. ${exchange.label}`,
      prismCell(withErrors.answers[index] as Answer, withErrors.segments[index] ?? []),
      prismCell(plain.answers[index] as Answer, plain.segments[index] ?? []),
      ourCell(ours.answers[index] as Answer, ours.failures[index] ?? [], ours.refused[index] ?? 0),
    ]);
    const out = process.stdout;
    out.write(
      `Prism ${prism.version} (\`prism proxy spec/openapi.yaml TARGET [--errors]\`) and payment-service-contract ${contract.version} (\`payment-service-contract proxy --target TARGET --report json:… --report markdown:…\`, SIGUSR2 after each exchange, SIGTERM at the end), node ${process.version}. TARGET: the mock behind \`@payment-service/contract/drift\` with \`${DRIFT}\`.\n\n`,
    );
    out.write(
      `${markdownTable(['Exchange', 'Prism --errors', 'Prism (default)', 'Ours'], rows)}\n\n`,
    );
    out.write(
      `At SIGTERM: Prism --errors ${exited(withErrors.exitCode)}, Prism (default) ${exited(plain.exitCode)}, files left in their working directories: ${withErrors.files.length + plain.files.length} (\`prism proxy --help\` lists no report option); ours exited ${ours.exitCode} (\`--fail-on documented\`, the default) and wrote report.json and report.md.\n\n`,
    );
    for (const [name, run] of [
      ['Prism --errors', withErrors],
      ['Prism (default)', plain],
    ] as const) {
      out.write(`### ${name}: log lines per exchange\n\n\`\`\`text\n`);
      run.segments.forEach((lines, index) => {
        out.write(`# ${index + 1}\n${lines.join('\n')}\n`);
      });
      out.write('```\n\n');
    }
    out.write(
      `### Ours: its output, and the Markdown report written at SIGTERM\n\n\`\`\`text\n${ours.output.trim()}\n\`\`\`\n\n${ours.markdown.trim()}\n`,
    );
  } finally {
    await drifted.close();
    await mock.close();
  }
}

await main();
