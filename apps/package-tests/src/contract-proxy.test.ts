// Issue 32's "done when", from the packed tarballs in a fresh project: a small SDK app through `payment-service-contract proxy` in front of a target drifting one documented fact, its recording replayed, a baseline, and the filters.
import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type CliSandbox, startCliSandbox } from './cli-sandbox.js';
import { contract, type Run, startDrifted, startProxy } from './contract-command.js';
import { runIn } from './fresh-project.js';
import { sharedProject } from './shared-project.js';
import { waitForFile } from './wait-for-file.js';

const key = 'sk_test_packed_contract_proxy';
/** The documented fact the target drifts from: created_at to the second (§2.1). */
const DRIFT = 'created-at-milliseconds';

/** The merchant's app: the SDK pointed at BASE_URL; one payment created and read back, then (INVALID=1) one with a negative amount. */
const APP = `const { createClient } = require('@payment-service/sdk');
async function main() {
  const client = createClient({ apiKey: process.env.KEY, baseUrl: process.env.BASE_URL });
  const created = await client.payments.create({
    amount: 1500,
    currency: 'KZT',
    payment_method: { type: 'token', token: 'tok_test_success' },
  });
  const read = await client.payments.retrieve(created.id);
  let invalid = 'not sent';
  if (process.env.INVALID === '1')
    invalid = await client.payments
      .create({ amount: -100, currency: 'KZT', payment_method: { type: 'token', token: 'tok_test_success' } })
      .then(() => 'accepted', (error) => error.status + ' ' + error.code);
  console.log(JSON.stringify({ status: read.status, invalid }));
}
main().catch((error) => { console.error(error); process.exit(1); });
`;

/** The installed spec (the openapi package's document) with Payment.created_at renamed to createdAt, as JSON. */
const RENAME = `const { openapiDocument } = require('@payment-service/openapi');
const spec = structuredClone(openapiDocument);
const payment = spec.components.schemas.Payment;
payment.properties.createdAt = payment.properties.created_at;
delete payment.properties.created_at;
payment.required = payment.required.map((name) => (name === 'created_at' ? 'createdAt' : name));
require('node:fs').writeFileSync('renamed.json', JSON.stringify(spec, null, 2));
`;

describe('payment-service-contract proxy and replay from the packed tarballs', () => {
  let project: string;
  let sandbox: CliSandbox;
  let drifted: { url: string; child: ChildProcess };
  /** The proxy in front of the drifted target, stopped with SIGTERM, and what the app printed. */
  let driftedRun: Run;
  let driftedApp: { status: string; invalid: string };
  /** The proxy in front of the mock, recording clean traffic, and its recording. */
  let cleanRun: Run;
  let cleanHar: string;
  const file = (name: string) => readFile(join(project, name), 'utf8');
  const app = (baseUrl: string, invalid: boolean) =>
    runIn(project, process.execPath, ['app.cjs'], {
      KEY: key,
      BASE_URL: baseUrl,
      INVALID: invalid ? '1' : '0',
    });

  beforeAll(async () => {
    project = await sharedProject('kit', inject('tarballs'), inject('registry'));
    await writeFile(join(project, 'app.cjs'), APP);
    await writeFile(join(project, 'rename.cjs'), RENAME);
    sandbox = await startCliSandbox(project);
    drifted = await startDrifted(project, sandbox.url, [DRIFT]);
    const [toDrifted, toMock] = await Promise.all([
      startProxy(project, [
        '--target',
        drifted.url,
        '--report',
        'junit:proxy/report.xml',
        '--report',
        'markdown:proxy/report.md',
        '--report',
        'sarif:proxy/report.sarif',
        '--report',
        'json:proxy/report.json',
        '--record',
        'drifted.har',
      ]),
      startProxy(project, ['--target', sandbox.url, '--record', 'clean.har']),
      runIn(project, process.execPath, ['rename.cjs']),
    ]);
    const [appOutput] = await Promise.all([app(toDrifted.url, true), app(toMock.url, false)]);
    driftedApp = JSON.parse(appOutput);
    // The drifted one as its start line says (kill -TERM PID); the other as `kill $!` after `npx … &`.
    [driftedRun, cleanRun] = await Promise.all([toDrifted.stop('proxy'), toMock.stop('npx')]);
    cleanHar = await waitForFile(join(project, 'clean.har'));
  });
  afterAll(async () => {
    drifted?.child.kill();
    await sandbox?.stop();
  });

  it('lets the app run through it: the drift reaches the app, the negative amount is refused', () => {
    expect(driftedApp).toEqual({ status: 'SUCCEEDED', invalid: '400 invalid_request' });
  });

  it('ends on SIGTERM with exit 1 against the drifted target, through npx', () => {
    expect(driftedRun.code, driftedRun.stderr).toBe(1);
    expect(driftedRun.stderr).toContain('wrote the junit report to proxy/report.xml');
    expect(driftedRun.stdout).toMatch(/^FAILED/m);
    expect(driftedRun.stdout + driftedRun.stderr).not.toContain(key);
  });

  it('still writes its recording when SIGTERM reaches npx, which does not pass it on', () => {
    // npm's shell dies on the signal (143); the proxy notices its parent has gone and stops as at SIGTERM.
    expect(cleanRun.code).toBe(143);
    const har = JSON.parse(cleanHar);
    expect(har.log.version).toBe('1.2');
    expect(
      har.log.entries.map((entry: { request: { method: string } }) => entry.request.method),
    ).toEqual(['POST', 'GET']);
    expect(cleanHar).not.toContain(key);
  });

  it('names the drifted element and its provenance in JUnit, Markdown and SARIF', async () => {
    const xml = await file('proxy/report.xml');
    expect(xml).toMatch(
      /<testcase classname="createPayment" name="schema\.Payment\.created_at:[^"]*" time="[0-9.]+">(?:(?!<\/testcase>)[\s\S])*<failure message="\[documented\] documented \(provider document §2\.1\)/,
    );
    const markdown = await file('proxy/report.md');
    const drift = markdown.slice(0, markdown.indexOf('Your requests'));
    expect(drift).toContain('### Documented checks failed');
    expect(drift).toContain('<code>schema.Payment.created_at</code>');
    expect(drift).toContain('/components/schemas/Payment/properties/created_at');
    const sarif = JSON.parse(await file('proxy/report.sarif'));
    const [run] = sarif.runs;
    const result = run.results.find(
      (item: { ruleId: string }) => item.ruleId === 'schema.Payment.created_at',
    );
    expect(result).toMatchObject({
      level: 'error',
      properties: { provenance: 'documented', cause: 'answer' },
    });
    expect(result.message.text.split('\n')).toContain(
      "cause: the target's answer drifts from the spec",
    );
    const rule = run.tool.driver.rules.find(
      (item: { id: string }) => item.id === 'schema.Payment.created_at',
    );
    expect(rule.properties).toMatchObject({
      provenance: 'documented',
      'provenance.section': '2.1',
    });
  });

  it("reports the negative amount as the app's own mistake, not the provider's", async () => {
    const id = 'request.schema.CreatePaymentRequest.amount';
    const report = JSON.parse(await file('proxy/report.json'));
    const failed = report.checks.filter((check: { outcome: string }) => check.outcome === 'failed');
    expect(failed.filter((check: { id: string }) => check.id === id)).toMatchObject([
      { cause: 'request', operation: 'createPayment' },
    ]);
    // Every other failure is the target's: the drifted created_at.
    for (const check of failed.filter((item: { id: string }) => item.id !== id))
      expect(check).toMatchObject({ id: 'schema.Payment.created_at', cause: 'answer' });
    const markdown = await file('proxy/report.md');
    const yours = markdown.slice(markdown.indexOf('### Your requests'));
    expect(yours).toMatch(/^### Your requests broke the contract \(1\): cause: your request/);
    expect(yours).toContain(id);
    expect(markdown.slice(0, markdown.indexOf('### Your requests'))).not.toContain(id);
    const sarif = JSON.parse(await file('proxy/report.sarif'));
    const result = sarif.runs[0].results.find((item: { ruleId: string }) => item.ruleId === id);
    expect(result.properties.cause).toBe('request');
    expect(result.message.text).toContain('cause: your request');
    expect(await file('proxy/report.xml')).toMatch(
      /name="request\.schema\.CreatePaymentRequest\.amount: your request: [^"]*"/,
    );
  });

  it('replays the clean recording: exit 0 against the shipped spec, 1 against a renamed field', async () => {
    const shipped = await contract(project, ['replay', 'clean.har']);
    expect(shipped.code, shipped.stderr + shipped.stdout).toBe(0);
    const renamed = await contract(project, [
      'replay',
      'clean.har',
      '--spec',
      'renamed.json',
      '--report',
      'json:renamed.json.report',
    ]);
    expect(renamed.code, renamed.stderr + renamed.stdout).toBe(1);
    const report = JSON.parse(await file('renamed.json.report'));
    const failed = report.checks.filter((check: { outcome: string }) => check.outcome === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const check of failed)
      expect(check).toMatchObject({
        id: 'schema.Payment.createdAt',
        cause: 'answer',
        element: { provenance: { kind: 'documented' } },
      });
  });

  it('turns the known failures into a pass with --baseline, and a new failure still fails', async () => {
    const recorded = JSON.parse(await file('proxy/report.json'));
    const known = recorded.checks
      .filter((check: { outcome: string }) => check.outcome === 'failed')
      .map((check: { id: string; operation: string }) => ({
        check: check.id,
        operation: check.operation,
        reason: 'the provider sends milliseconds; ticket PAY-1',
      }));
    await writeFile(join(project, 'baseline.json'), JSON.stringify({ version: 1, known }, null, 2));
    // Without it, the same traffic failed (the proxy's exit 1 above).
    expect(driftedRun.code).toBe(1);
    const known0 = await contract(project, [
      'replay',
      'drifted.har',
      '--baseline',
      'baseline.json',
    ]);
    expect(known0.code, known0.stderr + known0.stdout).toBe(0);
    expect(known0.stdout).toMatch(/^PASSED: .* 3 known failures accepted by baseline\.json/m);
    expect(known0.stdout).toContain(
      "Your requests' known failures (1), accepted by baseline.json: request.schema.CreatePaymentRequest.amount",
    );
    const fresh = await contract(project, [
      'replay',
      'drifted.har',
      '--baseline',
      'baseline.json',
      '--spec',
      'renamed.json',
      '--report',
      'json:fresh.json',
    ]);
    expect(fresh.code, fresh.stderr + fresh.stdout).toBe(1);
    const counted = JSON.parse(await file('fresh.json')).checks.filter(
      (check: { outcome: string; baseline?: { state: string } }) =>
        check.outcome === 'failed' && check.baseline?.state !== 'known',
    );
    expect(new Set(counted.map((check: { id: string }) => check.id))).toEqual(
      new Set(['schema.Payment.createdAt']),
    );
  });

  it('--operation createPayment runs only that operation’s checks, in list and in replay', async () => {
    const list = await contract(project, [
      'list',
      '--format',
      'json',
      '--operation',
      'createPayment',
    ]);
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout);
    const checks: Array<{ operation: string }> = listed.checks ?? listed;
    expect(checks.length).toBeGreaterThan(0);
    expect(new Set(checks.map((check) => check.operation))).toEqual(new Set(['createPayment']));
    const replay = await contract(project, [
      'replay',
      'drifted.har',
      '--operation',
      'createPayment',
      '--report',
      'json:only-create.json',
    ]);
    expect(replay.code).toBe(1);
    const report = JSON.parse(await file('only-create.json'));
    const operations = new Set(
      report.checks.map((check: { operation: string }) => check.operation),
    );
    expect(operations).toEqual(new Set(['createPayment']));
    // Without the filter, the recording also holds retrievePayment's checks.
    const all = JSON.parse(await file('proxy/report.json'));
    expect(all.checks.map((check: { operation: string }) => check.operation)).toContain(
      'retrievePayment',
    );
  });
});
