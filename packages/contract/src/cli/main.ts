// The CLI's body, with its streams and environment injected: parses, runs check, compare or list, writes the reports, returns the exit code.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CheckLedger } from '../checks/ledger.js';
import { compareTargets } from '../compare/compare.js';
import { formatComparison } from '../compare/format.js';
import { ContractCheckError } from '../errors.js';
import { readBaseline, writeBaselineFile } from '../gate/baseline.js';
import { loadConfig } from '../gate/config.js';
import {
  type CheckSelection,
  isEmptySelection,
  isSelected,
  selectable,
  validateSelection,
} from '../gate/filters.js';
import { randomSeed } from '../gate/seed.js';
import { contractVersion } from '../generated/version.js';
import { runTrafficCommand } from '../proxy/command.js';
import type { ContractReport } from '../report.js';
import { formatBounded } from '../reports/index.js';
import type { Clock } from '../runner/clock.js';
import { maskSecrets } from '../runner/exchange-record.js';
import {
  type ContractCheckOptions,
  DEFAULTS,
  runContract,
  validateOptions,
} from '../runner/run.js';
import { scenarios } from '../scenarios/index.js';
import { describeProvenance } from '../spec/elements.js';
import { cleanTargetText } from '../untrusted-text.js';
import { type CheckArguments, parseCommand, type ReportDestination } from './args.js';
import { helpText } from './help.js';

/** What the CLI reads and writes: the process's, or a test's. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Replaces global fetch (tests run the CLI in process against an in-process target). */
  fetch?: (request: Request) => Promise<Response>;
  /** Replaces the real clock (tests move it instead of waiting for a deadline). */
  clock?: Clock;
}

/** What the CLI prints of a URL: never its user name or password. */
function credentialsOf(text: string | undefined): string[] {
  try {
    const url = new URL(text ?? '');
    return [url.username, url.password]
      .filter((part) => part !== '')
      .flatMap((part) => [part, decodeURIComponent(part)]);
  } catch {
    return [];
  }
}

/** Every value given to an option, as `--name value` or `--name=value`. */
function optionValues(argv: string[], name: string): string[] {
  return argv.flatMap((arg, index) =>
    arg === name
      ? [argv[index + 1] ?? '']
      : arg.startsWith(`${name}=`)
        ? [arg.slice(name.length + 1)]
        : [],
  );
}

/** Masks the run's secrets in any text the CLI writes: keys, signing secrets and URL credentials. */
function masker(keys: string[], hidden: string[]) {
  return (text: string) => {
    let masked = maskSecrets(text, keys);
    for (const part of hidden) if (part.length > 0) masked = masked.split(part).join('***');
    return masked;
  };
}

async function writeReports(
  io: CliIo,
  destinations: ReportDestination[],
  report: ContractReport,
  mask: (text: string) => string,
) {
  for (const destination of destinations) {
    const text = mask(formatBounded(destination.format, report));
    if (destination.output === undefined) {
      io.stdout.write(text);
      continue;
    }
    const path = resolve(io.cwd, destination.output);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    io.stderr.write(`wrote the ${destination.format} report to ${destination.output}\n`);
  }
  // Without a report on stdout, the verdict still reaches the log.
  if (destinations.every((destination) => destination.output !== undefined)) {
    io.stdout.write(`${mask(report.message)}\n`);
  }
}

function runOptions(args: CheckArguments, io: CliIo, seed: number): ContractCheckOptions {
  const progress = args.progress && io.stderr.isTTY === true;
  return {
    baseUrl: args.baseUrl,
    apiKey: args.apiKey,
    failOn: args.failOn,
    scenarios: args.scenarios,
    selection: args.gate.selection,
    seed,
    ...(args.maxRequests !== undefined ? { maxRequests: args.maxRequests } : {}),
    ...(args.rate !== undefined ? { rate: args.rate } : {}),
    ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
    ...(args.webhookUrl !== undefined ? { webhookUrl: args.webhookUrl } : {}),
    ...(args.webhookListen !== undefined ? { webhookListen: args.webhookListen } : {}),
    ...(args.webhookTimeoutMs !== undefined ? { webhookTimeoutMs: args.webhookTimeoutMs } : {}),
    ...(args.deadlineMs !== undefined ? { deadlineMs: args.deadlineMs } : {}),
    ...(io.fetch ? { fetch: io.fetch } : {}),
    ...(io.clock ? { clock: io.clock } : {}),
    ...(progress
      ? {
          onProgress: ({ index, total, scenario }) =>
            io.stderr.write(`\r\u001b[2K[${index + 1}/${total}] ${scenario}`),
        }
      : {}),
  };
}

function announce(
  io: CliIo,
  args: CheckArguments,
  mask: (text: string) => string,
  seed: number,
  label = 'checking',
) {
  io.stderr.write(
    mask(
      `payment-service-contract ${contractVersion}: ${label} ${args.baseUrl} with at most ${args.maxRequests ?? DEFAULTS.maxRequests} requests, ${args.rate ?? DEFAULTS.rate} per second, for at most ${(args.deadlineMs ?? DEFAULTS.deadlineMs) / 60_000} min; webhooks: ${args.webhookUrl ?? 'none (pass --webhook-url to check deliveries)'}; seed ${seed} (--seed ${seed} repeats its keys and markers)\n`,
    ),
  );
}

function listChecks(io: CliIo, format: 'text' | 'json', selection: CheckSelection): number {
  // `list` shows what `check` would run: the same selection, the same errors for a bad one.
  if (!isEmptySelection(selection)) validateSelection(selection);
  const ledger = new CheckLedger();
  for (const scenario of scenarios)
    for (const check of scenario.checks)
      if (isSelected(selectable(check), selection)) ledger.declare(check, 'scenario');
  const checks = ledger.results().map((check) => ({
    id: check.id,
    operation: check.operation,
    title: check.title,
    element: check.element,
    scenarios: scenarios
      .filter((scenario) =>
        scenario.checks.some((item) => item.id === check.id && item.operation === check.operation),
      )
      .map((scenario) => scenario.id),
  }));
  if (format === 'json') {
    io.stdout.write(`${JSON.stringify(checks, null, 2)}\n`);
    return 0;
  }
  const documented = checks.filter(
    (check) => check.element.provenance.kind === 'documented',
  ).length;
  io.stdout.write(
    `${checks.length} scenario checks (${documented} documented, ${checks.length - documented} inferred); every response is also checked against the spec's schemas.\n\n`,
  );
  for (const check of checks) {
    io.stdout.write(
      `${check.id}\n  ${check.title}\n  ${describeProvenance(check.element.provenance)}; ${check.element.pointer}${check.element.value ? ` (${check.element.value})` : ''}\n`,
    );
  }
  return 0;
}

/**
 * Runs the CLI: `check`, `compare`, `list`, `proxy` or `replay`; returns the exit code (0 passed, 1 contract failures,
 * 2 usage or configuration, 3 unreachable, key refused or out of time, 4 no verdict: an internal error).
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  let secrets: string[] = [];
  let mask = masker([], credentialsOf(io.env.PAYMENT_SERVICE_BASE_URL));
  try {
    const given = [
      io.env.PAYMENT_SERVICE_BASE_URL,
      ...optionValues(argv, '--base-url'),
      ...optionValues(argv, '--against'),
    ];
    mask = masker([], given.flatMap(credentialsOf));
    // proxy and replay (the team's own traffic) parse and run on their own: src/proxy.
    if (argv[0] === 'proxy' || argv[0] === 'replay') return await runTrafficCommand(argv, io);
    const early = argv.some((arg) => ['--help', '-h', '--version', '-v'].includes(arg));
    const config =
      early || argv[0] === 'help'
        ? undefined
        : await loadConfig(io.cwd, optionValues(argv, '--config').at(-1));
    const command = parseCommand(argv, io.env, config);
    if (command.name === 'version') {
      io.stdout.write(`${contractVersion}\n`);
      return 0;
    }
    if (command.name === 'help') {
      io.stdout.write(helpText(command.topic));
      return 0;
    }
    if (command.name === 'list') return listChecks(io, command.format, command.selection);
    secrets = [command.apiKey];
    const hidden = given.flatMap(credentialsOf);
    mask = masker(secrets, hidden);
    const seed = command.gate.seed ?? randomSeed();
    if (command.name === 'check') {
      const { baseline: baselineFile, updateBaseline } = command.gate;
      const options: ContractCheckOptions = {
        ...runOptions(command, io, seed),
        keepTraces: false,
        ...(baselineFile !== undefined
          ? {
              baseline: await readBaseline(
                resolve(io.cwd, baselineFile),
                baselineFile,
                updateBaseline,
              ),
              updateBaseline,
            }
          : {}),
      };
      // A refused key or a bad option is said before the banner, so nothing reads as if it ran.
      validateOptions(options);
      announce(io, command, mask, seed);
      const { report, updatedBaseline } = await runContract(options);
      if (command.progress && io.stderr.isTTY) io.stderr.write('\r\u001b[2K');
      if (updatedBaseline && baselineFile !== undefined)
        io.stderr.write(await writeBaselineFile(io.cwd, baselineFile, updatedBaseline));
      await writeReports(io, command.reports, report, mask);
      if (report.exitCode >= 2)
        io.stderr.write(`payment-service-contract: ${mask(report.message)}\n`);
      return report.exitCode;
    }
    secrets.push(command.againstKey);
    mask = masker(secrets, hidden);
    const live = runOptions(command, io, seed);
    const against = {
      ...live,
      baseUrl: command.against,
      apiKey: command.againstKey,
      ...(command.againstWebhookUrl ? { webhookUrl: command.againstWebhookUrl } : {}),
    };
    validateOptions(live);
    validateOptions(against);
    announce(io, command, mask, seed, 'comparing');
    const comparison = await compareTargets({ live, against });
    if (command.progress && io.stderr.isTTY) io.stderr.write('\r\u001b[2K');
    const text = mask(
      formatComparison(
        comparison,
        command.reports[0]?.format === 'json'
          ? 'json'
          : command.reports[0]?.format === 'markdown'
            ? 'markdown'
            : 'text',
      ),
    );
    const output = command.reports.find((report) => report.output !== undefined)?.output;
    if (output) {
      const path = resolve(io.cwd, output);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
      io.stdout.write(`${comparison.message}\n`);
    } else io.stdout.write(text);
    return comparison.exitCode;
  } catch (error) {
    if (error instanceof ContractCheckError) {
      io.stderr.write(`payment-service-contract: ${mask(cleanTargetText(error.message, 2000))}\n`);
      return error.exitCode;
    }
    // A bug here: no verdict (exit 4), never read as contract failures (exit 1).
    io.stderr.write(
      `payment-service-contract: no verdict, an internal error: ${mask(cleanTargetText(String((error as Error)?.stack ?? error), 4000))}\n`,
    );
    return 4;
  }
}
