// The packed payment-service-contract CLI in a fresh project, against the installed payment-service-mock and a drifted proxy in front of it.
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type CliSandbox, startCliSandbox } from './cli-sandbox.js';
import { contract, startDrifted } from './contract-command.js';
import { sharedProject } from './shared-project.js';

const key = 'sk_test_packed_contract_cli';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('payment-service-contract from the packed tarballs (once through npx, then its bin link)', () => {
  let project: string;
  let sandbox: CliSandbox;
  let drifted: { url: string; child: ChildProcess };
  const check = (baseUrl: string, ...extra: string[]) =>
    contract(project, ['check', '--base-url', baseUrl, '--key', key, '--rate', '500', ...extra]);
  const checkThroughNpx = (baseUrl: string, ...extra: string[]) =>
    contract(
      project,
      ['check', '--base-url', baseUrl, '--key', key, '--rate', '500', ...extra],
      'npx',
    );

  beforeAll(async () => {
    project = await sharedProject('kit', inject('tarballs'), inject('registry'));
    sandbox = await startCliSandbox(project);
    drifted = await startDrifted(project, sandbox.url);
  });
  afterAll(async () => {
    drifted?.child.kill();
    await sandbox?.stop();
  });

  it('passes against npx payment-service-mock, with no failure in report.xml (exit 0)', async () => {
    const run = await checkThroughNpx(
      sandbox.url,
      '--format',
      'junit',
      '--output',
      'report.xml',
      '--webhook-url',
      'http://127.0.0.1:0/hooks',
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toMatch(/^PASSED: every documented fact holds; every inferred check holds/);
    const xml = await readFile(join(project, 'report.xml'), 'utf8');
    expect(xml).toMatch(
      /<testsuites name="payment-service-contract [^"]+" tests="\d+" failures="0" errors="0" skipped="0"/,
    );
    expect(run.stdout + run.stderr + xml).not.toContain(key);
  });

  it('fails against a drifted target (exit 1), each drift a failed testcase naming its provenance', async () => {
    const run = await check(drifted.url, '--format', 'junit', '--output', 'drifted.xml');
    expect(run.code, run.stderr).toBe(1);
    const xml = await readFile(join(project, 'drifted.xml'), 'utf8');
    for (const [name, provenance] of [
      ['schema.Payment.created_at', 'documented'],
      ['schema.Payment.object', 'documented'],
      ['createPayment.captured-is-succeeded', 'documented'],
      ['status.success', 'inferred'],
      ['createPayment.invalid-request', 'inferred'],
      ['header.Request-Id', 'inferred'],
    ] as const) {
      const testcase = new RegExp(
        `<testcase classname="createPayment" name="${name.replace(/\./g, '\\.')}:[^"]*" time="[0-9.]+">(?:(?!</testcase>)[\\s\\S])*<failure message="\\[${provenance}\\]`,
      );
      expect(xml, name).toMatch(testcase);
    }
  });

  it('exits 0 on the same drifted target with --fail-on none', async () => {
    const run = await check(drifted.url, '--fail-on', 'none', '--scenario', 'create-payment');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Documented checks failed');
  });

  it('compare lists each planted difference between the drifted target and the mock', async () => {
    const run = await contract(project, [
      'compare',
      '--base-url',
      drifted.url,
      '--key',
      key,
      '--against',
      sandbox.url,
      '--against-key',
      'sk_test_packed_contract_mock',
      '--rate',
      '500',
      '--scenario',
      'create-payment',
      '--scenario',
      'bad-input',
    ]);
    expect(run.code, run.stderr).toBe(1);
    for (const planted of [
      'value created_at',
      'shape object',
      'value status = SUCCEEDED: provider "COMPLETED", mock "SUCCEEDED"',
      'status: provider 200, mock 201',
      'code code = invalid_request: provider validation_error, mock invalid_request',
      'header Request-Id: provider absent, mock sent',
    ]) {
      expect(run.stdout).toContain(planted);
    }
  });

  it('exits 2 for an sk_live_ key without sending a request', async () => {
    const run = await contract(project, [
      'check',
      '--base-url',
      sandbox.url,
      '--key',
      'sk_live_abcdefghijklmnop',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('refusing an sk_live_ key');
    expect(run.stderr).not.toContain('abcdefghijklmnop');
  });

  it('exits 3 for a closed port', async () => {
    const run = await check(`http://127.0.0.1:${await closedPort()}`);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('connection refused');
  });

  it('exits 3 the second time when the target was stopped in between, never a replayed pass', async () => {
    const url = sandbox.url;
    expect((await check(url, '--scenario', 'create-payment')).code).toBe(0);
    await sandbox.stop();
    const again = await check(url, '--scenario', 'create-payment');
    expect(again.code).toBe(3);
  });
});
