// `proxy` and `replay` under `check`'s gate, as the CLI runs them on loopback: the selection narrows what is reported, a baseline turns a known failure into a pass while a new one still fails, and SARIF names each result's element, provenance and cause.
import { EventEmitter } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningMockServer, startMockServer } from '@payment-service/mock/node';
import AjvDraft04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { main } from '../cli/main.js';
import { type DriftProxyServer, startDriftProxy } from '../drift/index.js';
import type { TrafficIo } from './command.js';
import type { TrafficReport } from './traffic-report.js';

const require = createRequire(import.meta.url);
const sarifSchema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
const AjvDraft04 = AjvDraft04Module as unknown as new (
  options: object,
) => {
  compile(schema: object): ((value: unknown) => boolean) & { errors?: unknown };
};
const addFormats = addFormatsModule as unknown as (ajv: object) => void;

const key = 'sk_test_proxy_gate_secret_1';
const specPath = fileURLToPath(new URL('../../../../spec/openapi.yaml', import.meta.url));
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const payment = (amount: number) =>
  JSON.stringify({
    amount,
    currency: 'KZT',
    capture: true,
    payment_method: { type: 'token', token: 'tok_test_success' },
  });

/** A SARIF log, checked against the SARIF 2.1.0 schema. */
async function validSarif(path: string) {
  const ajv = new AjvDraft04({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  const validate = ajv.compile(sarifSchema);
  const log = JSON.parse(await readFile(path, 'utf8'));
  expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
  return log.runs[0] as {
    results: Array<{
      ruleId: string;
      level: string;
      message: { text: string };
      locations: Array<{
        physicalLocation?: { artifactLocation: { uri: string }; region?: { startLine: number } };
      }>;
      properties: Record<string, unknown>;
      suppressions?: unknown[];
    }>;
    tool: { driver: { rules: Array<{ id: string; properties: Record<string, unknown> }> } };
  };
}

function io(cwd: string) {
  let stdout = '';
  let stderr = '';
  const signals = new EventEmitter();
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const value: TrafficIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd,
    signals: {
      on: (signal, listener) => signals.on(signal, listener),
      off: (signal, listener) => signals.off(signal, listener),
    },
    onListening: (address) => listening(address),
  };
  return { io: value, url, signals, out: () => stdout, err: () => stderr };
}

/** Runs the proxy with these flags, sends the traffic through it, stops it; its exit code and output. */
async function proxyRun(
  cwd: string,
  target: string,
  flags: string[],
  traffic: (base: string) => Promise<void>,
) {
  const run = io(cwd);
  const exit = main(['proxy', '--target', target, '--port', '0', ...flags], run.io);
  const base = await Promise.race([run.url, exit.then(() => '')]);
  if (base !== '') {
    await traffic(base);
    run.signals.emit('SIGTERM');
  }
  return { code: await exit, out: run.out(), err: run.err() };
}

const drift = async (base: string) => {
  const created = await fetch(`${base}/v1/payments`, {
    method: 'POST',
    headers,
    body: payment(1500),
  });
  expect(created.status).toBe(201);
  expect((await fetch(`${base}/v1/payments?limit=2`, { headers })).status).toBe(200);
};
const negative = async (base: string) => {
  await drift(base);
  const refused = await fetch(`${base}/v1/payments`, {
    method: 'POST',
    headers,
    body: payment(-5),
  });
  expect(refused.status).toBe(400);
};

const KNOWN = {
  version: 1,
  known: [
    {
      check: 'createPayment.captured-is-succeeded',
      operation: 'createPayment',
      reason: 'PROV-12: the sandbox says COMPLETED',
    },
    { check: 'schema.Payment.status', reason: 'PROV-12: COMPLETED is not in the enum' },
  ],
};

describe('proxy and replay under the gate', () => {
  let mock: RunningMockServer;
  let drifted: DriftProxyServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
    drifted = await startDriftProxy({
      upstreamUrl: mock.url,
      drifts: ['completed-instead-of-succeeded'],
    });
  });
  afterAll(async () => {
    await drifted.close();
    await mock.close();
  });

  it('proxy --operation createPayment reports only its checks, the requests’ among them; SARIF names element, provenance and cause', async () => {
    const cwd = temporaryDirectory('contract-proxy-gate-');
    const { code } = await proxyRun(
      cwd,
      drifted.url,
      [
        '--operation',
        'createPayment',
        '--report',
        'json:report.json',
        '--report',
        'sarif:report.sarif',
      ],
      negative,
    );
    expect(code).toBe(1);
    const report = JSON.parse(await readFile(join(cwd, 'report.json'), 'utf8')) as TrafficReport;
    expect(report.selection).toEqual({ operations: ['createPayment'] });
    expect(new Set(report.checks.map((check) => check.operation))).toEqual(
      new Set(['createPayment']),
    );
    expect(report.checks.some((check) => check.cause === 'request')).toBe(true);
    expect(report.checks.some((check) => check.cause === 'answer')).toBe(true);

    const run = await validSarif(join(cwd, 'report.sarif'));
    const answer = run.results.find(
      (result) => result.ruleId === 'createPayment.captured-is-succeeded',
    );
    expect(answer).toMatchObject({
      level: 'error',
      properties: { provenance: 'documented', cause: 'answer', operation: 'createPayment' },
    });
    expect(answer?.message.text).toContain("cause: the target's answer");
    expect(answer?.locations[0]?.physicalLocation?.artifactLocation.uri).toBe('spec/openapi.yaml');
    expect(answer?.locations[0]?.physicalLocation?.region?.startLine).toBeGreaterThan(0);
    const request = run.results.find(
      (result) => result.ruleId === 'request.schema.CreatePaymentRequest.amount',
    );
    expect(request?.properties).toMatchObject({ cause: 'request', operation: 'createPayment' });
    expect(['documented', 'inferred']).toContain(request?.properties.provenance);
    expect(request?.message.text).toContain('cause: your request');
    expect(
      run.tool.driver.rules.find((rule) => rule.id === 'request.schema.CreatePaymentRequest.amount')
        ?.properties,
    ).toMatchObject({
      cause: 'request',
      'spec.pointer': '/components/schemas/CreatePaymentRequest/properties/amount',
    });
  });

  it('proxy --check request.* leaves the answers out; an unknown operation or glob exits 2 naming the flag', async () => {
    const cwd = temporaryDirectory('contract-proxy-gate-');
    const requestsOnly = await proxyRun(
      cwd,
      drifted.url,
      ['--check', 'request.*', '--report', 'json:report.json'],
      drift,
    );
    // The drift is in the answer: with only the requests' checks, the run passes.
    expect(requestsOnly.code).toBe(0);
    const report = JSON.parse(await readFile(join(cwd, 'report.json'), 'utf8')) as TrafficReport;
    expect(report.checks.every((check) => check.cause === 'request')).toBe(true);

    const unknown = await proxyRun(cwd, drifted.url, ['--operation', 'createPaymnt'], drift);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--operation "createPaymnt" is not an operation');
    const glob = await proxyRun(cwd, drifted.url, ['--exclude', 'nothing.like.this'], drift);
    expect(glob.code).toBe(2);
    expect(glob.err).toContain('--exclude "nothing.like.this" matches no check');
    const provenance = await proxyRun(cwd, drifted.url, ['--provenance', 'stated'], drift);
    expect(provenance.code).toBe(2);
    expect(provenance.err).toContain('--provenance must be documented or inferred');
  });

  it('proxy --baseline: the known drift passes, a new failure still fails, an expired entry fails again', async () => {
    const cwd = temporaryDirectory('contract-proxy-baseline-');
    await writeFile(join(cwd, 'baseline.json'), JSON.stringify(KNOWN));
    const known = await proxyRun(
      cwd,
      drifted.url,
      [
        '--baseline',
        'baseline.json',
        '--report',
        'json:known.json',
        '--report',
        'sarif:known.sarif',
      ],
      drift,
    );
    expect(known.code).toBe(0);
    expect(known.out).toContain('3 known failures accepted by baseline.json');
    const report = JSON.parse(await readFile(join(cwd, 'known.json'), 'utf8')) as TrafficReport;
    expect(report.baseline).toMatchObject({ file: 'baseline.json', known: 3 });
    const sarif = await validSarif(join(cwd, 'known.sarif'));
    const suppressed = sarif.results.find(
      (result) => result.ruleId === 'createPayment.captured-is-succeeded',
    );
    expect(suppressed?.level).toBe('note');
    expect(suppressed?.suppressions).toHaveLength(1);

    // The app's negative amount breaks an inferred element: counted under --fail-on any.
    const fresh = await proxyRun(
      cwd,
      drifted.url,
      ['--baseline', 'baseline.json', '--fail-on', 'any'],
      negative,
    );
    expect(fresh.code).toBe(1);
    expect(fresh.out).toContain('cause: your request');

    await writeFile(
      join(cwd, 'expired.json'),
      JSON.stringify({
        version: 1,
        known: KNOWN.known.map((entry) => ({ ...entry, expires: '2020-01-31' })),
      }),
    );
    const expired = await proxyRun(cwd, drifted.url, ['--baseline', 'expired.json'], drift);
    expect(expired.code).toBe(1);
    expect(expired.out).toContain('expired on 2020-01-31');
  });

  it('replay --baseline, --update-baseline and the config file; SARIF located in the --spec file', async () => {
    const cwd = temporaryDirectory('contract-replay-gate-');
    const recorded = await proxyRun(cwd, drifted.url, ['--record', 'traffic.har'], drift);
    expect(recorded.code).toBe(1);

    const plain = io(cwd);
    expect(await main(['replay', 'traffic.har'], plain.io)).toBe(1);
    await writeFile(join(cwd, 'baseline.json'), JSON.stringify(KNOWN));
    const known = io(cwd);
    expect(await main(['replay', 'traffic.har', '--baseline', 'baseline.json'], known.io)).toBe(0);
    expect(known.out()).toContain('3 known failures accepted by baseline.json');

    // The config file's baseline and fail-on; a flag overrides them.
    await writeFile(
      join(cwd, 'payment-service-contract.config.json'),
      JSON.stringify({ baseline: 'baseline.json', failOn: 'documented' }),
    );
    const configured = io(cwd);
    expect(await main(['replay', 'traffic.har'], configured.io)).toBe(0);
    const overridden = io(cwd);
    expect(await main(['replay', 'traffic.har', '--baseline', 'missing.json'], overridden.io)).toBe(
      2,
    );
    expect(overridden.err()).toContain('--baseline missing.json: cannot read it');

    const update = io(cwd);
    expect(
      await main(
        ['replay', 'traffic.har', '--baseline', 'written.json', '--update-baseline'],
        update.io,
      ),
    ).toBe(0);
    expect(update.err()).toContain('wrote the baseline to written.json: 3 known failure(s)');
    const written = JSON.parse(await readFile(join(cwd, 'written.json'), 'utf8'));
    expect(written.known).toContainEqual(
      expect.objectContaining({
        check: 'createPayment.captured-is-succeeded',
        operation: 'createPayment',
      }),
    );

    // Against another spec file: the selection is checked against it, the results sit on its lines.
    const renamed = (await readFile(specPath, 'utf8')).replaceAll('created_at', 'created_on');
    await writeFile(join(cwd, 'next.yaml'), renamed);
    const next = io(cwd);
    expect(
      await main(
        [
          'replay',
          'traffic.har',
          '--spec',
          'next.yaml',
          '--check',
          'schema.Payment.*',
          '--report',
          'sarif:next.sarif',
        ],
        next.io,
      ),
    ).toBe(1);
    const run = await validSarif(join(cwd, 'next.sarif'));
    expect(run.results.map((result) => result.ruleId)).toContain('schema.Payment.created_on');
    const broken = run.results.find((result) => result.ruleId === 'schema.Payment.created_on');
    expect(broken?.properties).toMatchObject({ provenance: 'documented', cause: 'answer' });
    expect(broken?.locations[0]?.physicalLocation).toEqual({
      // Relative to where the command ran: code scanning places it in the repository.
      artifactLocation: { uri: 'next.yaml' },
      region: { startLine: renamed.split('\n').indexOf('        created_on:') + 1 },
    });
    expect(run.results.every((result) => result.ruleId.startsWith('schema.Payment.'))).toBe(true);
  });
});
