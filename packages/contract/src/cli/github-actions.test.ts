// The repository's GitHub Actions (.github/actions/sandbox and contract-check), run as a runner
// runs them: their scripts with INPUT_* variables and GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files,
// against the locally built bins of the mock and the contract.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { reportJsonSchema } from '../reports/json.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const actions = join(root, '.github/actions');
const mockBin = join(root, 'packages/mock/bin/payment-service-mock.js');
const contractBin = join(root, 'packages/contract/bin/payment-service-contract.js');

/** The outputs a step wrote to its GITHUB_OUTPUT file, in both of GitHub's forms. */
function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] as string;
    const heredoc = /^([\w-]+)<<(.+)$/.exec(line);
    if (heredoc !== null) {
      const end = lines.indexOf(heredoc[2] as string, at + 1);
      outputs[heredoc[1] as string] = lines.slice(at + 1, end).join('\n');
      at = end;
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}

/** Runs an action's script as its composite step does; the files it writes are in `dir`. */
function runStep(
  script: string,
  inputs: Record<string, string>,
  dir: string,
  extraEnv: Record<string, string> = {},
) {
  const output = join(dir, `output-${Math.random().toString(36).slice(2)}`);
  const summary = join(dir, 'summary.md');
  writeFileSync(output, '');
  const env: Record<string, string | undefined> = {
    ...process.env,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_WORKSPACE: dir,
    RUNNER_TEMP: dir,
    ...extraEnv,
  };
  delete env.npm_config_user_agent;
  for (const [name, value] of Object.entries(inputs)) {
    env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] = value;
  }
  const run = spawnSync(process.execPath, [join(actions, script)], {
    env,
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { ...run, outputs: readOutputs(output), summary: () => readFileSync(summary, 'utf8') };
}

/** The workflow commands a step printed: each line of its stdout that the runner would read as one. */
const commandsIn = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('::'));

let dir: string;
let sandboxPid: number | undefined;
beforeAll(() => {
  dir = temporaryDirectory('github-actions-');
});
afterAll(() => {
  if (sandboxPid !== undefined) {
    try {
      process.kill(-sandboxPid, 'SIGTERM');
    } catch {}
  }
});

describe('the sandbox and contract-check actions', () => {
  it('start the mock, then check it, with outputs and a job summary', () => {
    const sandbox = runStep(
      'sandbox/start.mjs',
      {
        command: `node ${mockBin}`,
        // A receiver that is not there: the banner then prints the endpoint's signing secret.
        args: '--quiet --webhook-url http://127.0.0.1:9/hooks',
        'timeout-seconds': '30',
      },
      dir,
    );
    expect(sandbox.stderr).toBe('');
    expect(sandbox.status).toBe(0);
    const { outputs } = sandbox;
    sandboxPid = Number(outputs.pid);
    expect(outputs['base-url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(outputs.key).toMatch(/^sk_test_/);
    expect(outputs['webhook-secret']).toMatch(/^whsec_/);
    expect(sandbox.stdout).toContain(`::add-mask::${outputs.key}`);
    expect(sandbox.stdout).toContain(`::add-mask::${outputs['webhook-secret']}`);
    // The log file (an artifact a workflow may upload) holds neither secret, masked in place.
    const logFile = readFileSync(outputs['log-file'] as string, 'utf8');
    expect(logFile).toContain('Test key:  sk_test_****');
    expect(logFile).toContain('Webhook signing secret:  whsec_****');
    expect(logFile).not.toContain(outputs.key);
    expect(logFile).not.toContain(outputs['webhook-secret']);

    const check = runStep(
      'contract-check/check.mjs',
      {
        'base-url': outputs['base-url'] as string,
        key: outputs.key as string,
        command: `node ${contractBin}`,
        args: '--operation createPayment',
        formats: 'junit',
      },
      dir,
    );
    expect(check.status).toBe(0);
    expect(check.outputs.verdict).toBe('passed');
    expect(check.outputs['exit-code']).toBe('0');
    expect(readFileSync(check.outputs['junit-report'] as string, 'utf8')).toContain('<testsuite');
    expect(check.outputs['json-report']).toMatch(/contract-report\.json$/);
    expect(check.summary()).toContain('Contract check: passed');
    // The key appears once, in the mask command, and nowhere else in the log.
    const log = `${check.stdout}${check.stderr}`;
    expect(log.split(outputs.key as string)).toHaveLength(2);
    expect(log).toContain(`::add-mask::${outputs.key}`);
  });

  it('stops with the log when the sandbox exits before it is ready', () => {
    const failed = runStep(
      'sandbox/start.mjs',
      { command: `node ${mockBin}`, args: '--host not-an-address.invalid' },
      dir,
    );
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/::error title=sandbox::the sandbox exited \(status 2\)/);
    expect(failed.stdout).toContain('--host not-an-address.invalid');
  });

  it('refuses a wrong input by name, before running anything', () => {
    const wrong = runStep(
      'contract-check/check.mjs',
      { 'base-url': 'http://127.0.0.1:9', key: 'sk_test_abcdefgh12345678', 'fail-on': 'never' },
      dir,
    );
    expect(wrong.status).toBe(2);
    expect(wrong.stdout).toContain('fail-on must be one of documented, inferred, any, none');
    expect(wrong.stdout).not.toContain('sk_test_abcdefgh12345678');
  });
});

describe('hostile inputs (issue 40, item 7)', () => {
  const forged = 'documented\n::add-mask::forged\n::warning title=forged::PWNED';

  it('contract-check: an input with newlines forges no workflow command', () => {
    const cases: Array<[Record<string, string>, string]> = [
      // The value is shown as the contract shows a target's text: escapes, on the one line.
      [{ 'fail-on': forged }, 'got "documented\\u000a::add-mask::forged\\u000a::warning'],
      // formats splits on white space: the first word that is no format is named.
      [{ formats: 'junit,x\r\n::notice::PWNED %0A' }, 'got "x"'],
    ];
    for (const [inputs, shown] of cases) {
      const run = runStep(
        'contract-check/check.mjs',
        { 'base-url': 'http://127.0.0.1:9', key: 'sk_test_abcdefgh12345678', ...inputs },
        dir,
      );
      expect(run.status).toBe(2);
      const commands = commandsIn(run.stdout);
      expect(commands).toHaveLength(1);
      expect(commands[0]).toMatch(/^::error title=contract-check::/);
      expect(commands[0]).toContain(shown);
      expect(run.stdout).not.toMatch(/^::(add-mask|warning|notice)/m);
    }
  });

  it('sandbox: an input with newlines forges no workflow command', () => {
    const run = runStep(
      'sandbox/start.mjs',
      { command: `node ${mockBin}`, 'timeout-seconds': `5\n::add-mask::forged` },
      dir,
    );
    expect(run.status).toBe(1);
    expect(commandsIn(run.stdout)).toEqual([
      '::error title=sandbox::timeout-seconds must be a positive number; got "5\\u000a::add-mask::forged"',
    ]);
  });

  it('sandbox: a command that cannot start is named cleaned, on one line', () => {
    const run = runStep('sandbox/start.mjs', { command: 'no-such-bin-\u202e\u0007x' }, dir);
    expect(run.status).toBe(1);
    expect(commandsIn(run.stdout)).toEqual([
      expect.stringMatching(
        /^::error title=sandbox::could not start "no-such-bin-\\u202e\\u0007x": /,
      ),
    ]);
  });

  it('errorCommand escapes %, CR and LF; quoteInput cleans and cuts', async () => {
    const commands = await import(
      pathToFileURL(join(actions, 'shared/workflow-commands.mjs')).href
    );
    expect(commands.errorCommand('a:b,c', '50%\r\n::add-mask::x')).toBe(
      '::error title=a%3Ab%2Cc::50%25%0D%0A::add-mask::x\n',
    );
    expect(commands.quoteInput('x\u202ey')).toBe('"x\\u202ey"');
    expect(commands.quoteInput('a'.repeat(300))).toMatch(/^"a{200}… \(100 more characters\)"$/);
  });

  it("the actions' copy of the cleaning helper is the contract's, generated", () => {
    const check = spawnSync(
      process.execPath,
      [join(root, 'packages/contract/scripts/generate-action-helpers.mjs'), '--check'],
      { encoding: 'utf8' },
    );
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});

describe('the sandbox log file (issue 40, item 8)', () => {
  it('masks each secret in place, from where this run began, while the sandbox appends', async () => {
    const { maskSecretsInFile } = await import(
      pathToFileURL(join(actions, 'sandbox/start.mjs')).href
    );
    const file = join(dir, 'masking.log');
    const earlier = 'an earlier run: sk_test_keepthisone1\n';
    writeFileSync(file, earlier);
    appendFileSync(
      file,
      'Test key:  sk_test_abcdefgh1234\ncurl -H "Bearer sk_test_abcdefgh1234"\n',
    );
    appendFileSync(file, 'Webhook signing secret:  whsec_c2VjcmV0c2VjcmV0c2VjcmV0\n');
    expect(
      maskSecretsInFile(file, earlier.length, [
        'sk_test_abcdefgh1234',
        'whsec_c2VjcmV0c2VjcmV0c2VjcmV0',
        'sk_test_keepthisone1',
        undefined,
      ]),
    ).toBe(3);
    expect(readFileSync(file, 'utf8')).toBe(
      `${earlier}Test key:  sk_test_************\ncurl -H "Bearer sk_test_************"\nWebhook signing secret:  whsec_************************\n`,
    );
    expect(maskSecretsInFile('/dev/null', 0, ['sk_test_abcdefgh1234'])).toBe(0);
  });
});

describe('versions, exit codes and the README workflow (issue 40, item 9)', () => {
  const versionOf = (name: string) =>
    JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8')).version;

  it("run the kit's own version by default, never latest", async () => {
    const { planSandbox } = await import(pathToFileURL(join(actions, 'sandbox/start.mjs')).href);
    const { planCheck } = await import(
      pathToFileURL(join(actions, 'contract-check/check.mjs')).href
    );
    const sandbox = planSandbox({ RUNNER_TEMP: dir });
    expect([sandbox.command, ...sandbox.args].join(' ')).toContain(
      `npx --yes @payment-service/mock@${versionOf('mock')} --port 0`,
    );
    const check = planCheck({
      INPUT_BASE_URL: 'http://127.0.0.1:9',
      INPUT_KEY: 'sk_test_12345678',
    });
    expect([check.command, ...check.args].join(' ')).toContain(
      `npx --yes @payment-service/contract@${versionOf('contract')} check`,
    );
    for (const name of ['sandbox', 'contract-check']) {
      const action = parse(readFileSync(join(actions, name, 'action.yml'), 'utf8'));
      expect(action.inputs.version.default).toBe('');
    }
  });

  it('say what to do when npm has no such package (before the first release)', () => {
    // An npx that answers as npm does for a package that was never published.
    const bin = join(dir, 'fake-npx');
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, 'npx'),
      '#!/bin/sh\necho "npm error code E404" >&2\necho "npm error 404 Not Found - GET https://registry.npmjs.org/@payment-service%2fmock - Not found" >&2\nexit 1\n',
    );
    chmodSync(join(bin, 'npx'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const sandbox = runStep('sandbox/start.mjs', { 'timeout-seconds': '10' }, dir, env);
    expect(sandbox.status).toBe(1);
    expect(commandsIn(sandbox.stdout)).toHaveLength(1);
    expect(sandbox.stdout).toContain(
      `::error title=sandbox::@payment-service/mock@${versionOf('mock')} is not on the npm registry`,
    );
    expect(sandbox.stdout).toContain('command: node packages/mock/bin/payment-service-mock.js');

    const check = runStep(
      'contract-check/check.mjs',
      { 'base-url': 'http://127.0.0.1:9', key: 'sk_test_abcdefgh12345678' },
      dir,
      env,
    );
    // npx's failure is a usage error (2), never "contract failures" (1).
    expect(check.status).toBe(2);
    expect(check.outputs['exit-code']).toBe('2');
    expect(check.outputs.verdict).toBe('error');
    expect(check.stdout).toContain(
      `::error title=contract-check::@payment-service/contract@${versionOf('contract')} is not on the npm registry`,
    );
  });

  it("contract-check's action.yml documents every exit code and verdict the check gives", () => {
    const action = parse(readFileSync(join(actions, 'contract-check/action.yml'), 'utf8'));
    const properties = (
      reportJsonSchema as unknown as { properties: Record<string, { enum?: unknown[] }> }
    ).properties;
    const exitCode = action.outputs['exit-code'].description as string;
    for (const code of properties.exitCode?.enum ?? [])
      expect(exitCode).toMatch(new RegExp(`\\b${code} [a-z]`));
    const verdict = action.outputs.verdict.description as string;
    for (const value of properties.verdict?.enum ?? []) expect(verdict).toContain(String(value));
  });

  it("the README's workflow stops the sandbox only when it started", () => {
    const readme = readFileSync(join(root, 'packages/contract/README.md'), 'utf8');
    const workflows = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((match) => parse(match[1] as string))
      .filter((doc) => doc?.jobs !== undefined);
    expect(workflows.length).toBeGreaterThan(0);
    let kills = 0;
    for (const workflow of workflows) {
      for (const job of Object.values(workflow.jobs) as Array<{
        steps: Array<Record<string, string>>;
      }>) {
        for (const step of job.steps) {
          const pid = /\$\{\{ steps\.(\w+)\.outputs\.pid \}\}/.exec(step.run ?? '');
          if (pid === null) continue;
          kills += 1;
          expect(step.if).toContain(`steps.${pid[1]}.outputs.pid != ''`);
        }
      }
    }
    expect(kills).toBeGreaterThan(0);
  });

  it("the README's pre-release steps name actions and bins this checkout has", () => {
    const readme = readFileSync(join(root, 'packages/contract/README.md'), 'utf8');
    const fragment = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((match) => parse(match[1] as string))
      .find(
        (doc) =>
          Array.isArray(doc) &&
          doc.some((step: { with?: { repository?: string } }) => step.with?.repository),
      ) as Array<{ uses?: string; with?: Record<string, string> }> | undefined;
    expect(fragment).toBeDefined();
    const inCheckout = (path: string) =>
      join(root, path.replace(/^\.?\/?payment-service-kit\//, ''));
    const uses = (fragment ?? []).flatMap((step) =>
      step.uses?.startsWith('./') ? [step.uses] : [],
    );
    expect(uses).toHaveLength(2);
    for (const action of uses)
      expect(existsSync(join(inCheckout(action), 'action.yml')), action).toBe(true);
    const commands = (fragment ?? []).flatMap((step) =>
      step.with?.command ? [step.with.command] : [],
    );
    expect(commands).toHaveLength(2);
    for (const command of commands) {
      const [runner, bin] = command.split(' ');
      expect(runner).toBe('node');
      expect(existsSync(inCheckout(bin as string)), bin).toBe(true);
    }
  });
});
