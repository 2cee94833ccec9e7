// The repository's GitHub Actions (.github/actions/sandbox and contract-check), run as a runner
// runs them: their scripts with INPUT_* variables and GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files,
// against the locally built bins of the mock and the contract.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
function runStep(script: string, inputs: Record<string, string>, dir: string) {
  const output = join(dir, `output-${Math.random().toString(36).slice(2)}`);
  const summary = join(dir, 'summary.md');
  writeFileSync(output, '');
  const env: Record<string, string | undefined> = {
    ...process.env,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_WORKSPACE: dir,
    RUNNER_TEMP: dir,
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

let dir: string;
let sandboxPid: number | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'github-actions-'));
});
afterAll(() => {
  if (sandboxPid !== undefined) {
    try {
      process.kill(-sandboxPid, 'SIGTERM');
    } catch {}
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('the sandbox and contract-check actions', () => {
  it('start the mock, then check it, with outputs and a job summary', () => {
    const sandbox = runStep(
      'sandbox/start.mjs',
      { command: `node ${mockBin}`, args: '--quiet', 'timeout-seconds': '30' },
      dir,
    );
    expect(sandbox.stderr).toBe('');
    expect(sandbox.status).toBe(0);
    const { outputs } = sandbox;
    sandboxPid = Number(outputs.pid);
    expect(outputs['base-url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(outputs.key).toMatch(/^sk_test_/);
    expect(outputs['webhook-secret']).toBe('');
    expect(sandbox.stdout).toContain(`::add-mask::${outputs.key}`);
    expect(readFileSync(outputs['log-file'] as string, 'utf8')).toContain('Test key:');

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
