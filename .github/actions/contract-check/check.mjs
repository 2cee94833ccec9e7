// The contract-check action: runs `payment-service-contract check`, writes its reports, puts the
// Markdown report in the job summary and the verdict and report paths in the step's outputs.
// Plain Node (no dependencies), so that it runs on any runner and its test runs it as it is.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  appendSummary,
  checkoutVersion,
  errorCommand,
  input,
  mask,
  notOnNpm,
  quoteInput,
  saysNotFound,
  setOutput,
  splitCommand,
} from '../shared/workflow-commands.mjs';

/** The file name of each report format; `github` (annotations) goes to stdout, into the log. */
const REPORT_FILES = {
  text: 'contract-report.txt',
  junit: 'contract-report.xml',
  markdown: 'contract-report.md',
  json: 'contract-report.json',
  sarif: 'contract-report.sarif',
};
const FORMATS = [...Object.keys(REPORT_FILES), 'github'];
const FAIL_ON = ['documented', 'inferred', 'any', 'none'];

/**
 * Reads the action's inputs into the command to run and the reports it writes; throws on a
 * wrong input, naming it.
 *
 * @example
 * planCheck({ INPUT_BASE_URL: 'http://127.0.0.1:4010', INPUT_KEY: 'sk_test_…', INPUT_VERSION: '0.2.0' });
 */
export function planCheck(env) {
  const baseUrl = input(env, 'base-url');
  const key = input(env, 'key');
  if (baseUrl === '') throw new Error('the base-url input is required');
  if (key === '') throw new Error('the key input is required (pass it from a secret)');
  const failOn = input(env, 'fail-on') || 'documented';
  if (!FAIL_ON.includes(failOn)) {
    throw new Error(`fail-on must be one of ${FAIL_ON.join(', ')}; got ${quoteInput(failOn)}`);
  }
  const formats = new Set(
    (input(env, 'formats') || 'markdown,junit,json')
      .split(/[\s,]+/)
      .filter((format) => format !== ''),
  );
  for (const format of formats) {
    if (!FORMATS.includes(format)) {
      throw new Error(`formats takes ${FORMATS.join(', ')}; got ${quoteInput(format)}`);
    }
  }
  // The verdict comes from the JSON report and the summary from the Markdown one.
  formats.add('json');
  formats.add('markdown');
  const reportDir = resolve(
    env.GITHUB_WORKSPACE ?? '.',
    input(env, 'report-dir') || 'payment-service-contract',
  );
  const reports = {};
  const args = ['--fail-on', failOn, '--no-progress'];
  for (const format of formats) {
    if (format === 'github') {
      args.push('--format', 'github');
      continue;
    }
    reports[format] = join(reportDir, REPORT_FILES[format]);
    args.push('--format', `${format}:${reports[format]}`);
  }
  const baseline = input(env, 'baseline');
  if (baseline !== '') args.push('--baseline', baseline);
  const version = input(env, 'version') || checkoutVersion('contract');
  const own = input(env, 'command');
  const command = splitCommand(own || `npx --yes @payment-service/contract@${version}`);
  return {
    command: command[0],
    args: [...command.slice(1), 'check', ...args, ...splitCommand(input(env, 'args'))],
    // The key and the target go through the environment: never on a command line, never logged.
    env: { PAYMENT_SERVICE_BASE_URL: baseUrl, PAYMENT_SERVICE_API_KEY: key },
    key,
    reportDir,
    reports,
    // Said when npx finds no such package (before the kit's first release).
    npmPackage: own === '' ? { name: '@payment-service/contract', version } : undefined,
  };
}

/**
 * Runs a command with the job's output as its own; resolves to its exit code and the last 64 KiB
 * of its stderr (passed through as it comes), to tell npm's "no such package" from a check's exit.
 */
function runCommand(command, args, env) {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      stderr = (stderr + chunk.toString('utf8')).slice(-65_536);
    });
    child.on('error', fail);
    child.on('close', (code, signal) =>
      done({ exitCode: code ?? (signal === null ? 1 : 128), stderr }),
    );
  });
}

/**
 * Runs the check as the action's inputs ask, then writes the summary and the outputs. Resolves
 * to the exit code of the step: the check's (0 passed, 1 failed under fail-on, 2 usage, 3 stopped,
 * 4 no verdict), or 2 when npx found no such package.
 *
 * @example
 * process.exitCode = await runContractCheck(process.env);
 */
export async function runContractCheck(env) {
  const plan = planCheck(env);
  mask(plan.key);
  mkdirSync(plan.reportDir, { recursive: true });
  // An earlier run's reports in the same directory must not pass for this run's.
  for (const path of Object.values(plan.reports)) rmSync(path, { force: true });
  const run = await runCommand(plan.command, plan.args, { ...env, ...plan.env });
  let exitCode = run.exitCode;
  if (plan.npmPackage && !existsSync(plan.reports.json) && saysNotFound(run.stderr)) {
    // npx's own failure is not a contract failure (1): a usage error, with what to do.
    const { name, version } = plan.npmPackage;
    process.stdout.write(
      errorCommand(
        'contract-check',
        notOnNpm(name, version, 'node packages/contract/bin/payment-service-contract.js'),
      ),
    );
    exitCode = 2;
  }

  let verdict = 'error';
  if (existsSync(plan.reports.json)) {
    const report = JSON.parse(readFileSync(plan.reports.json, 'utf8'));
    if (typeof report.verdict === 'string') verdict = report.verdict;
  }
  if (existsSync(plan.reports.markdown)) {
    appendSummary(env, readFileSync(plan.reports.markdown, 'utf8'));
  } else {
    appendSummary(
      env,
      `## ❌ Contract check: no report\n\n\`payment-service-contract check\` exited ${exitCode} before writing one; see the step's log.\n`,
    );
  }
  setOutput(env, 'verdict', verdict);
  setOutput(env, 'exit-code', exitCode);
  setOutput(env, 'report-dir', plan.reportDir);
  for (const [format, path] of Object.entries(plan.reports)) {
    setOutput(env, `${format}-report`, existsSync(path) ? path : '');
  }
  return exitCode;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = await runContractCheck(process.env);
  } catch (error) {
    process.stdout.write(errorCommand('contract-check', error.message));
    process.exitCode = 2;
  }
}
