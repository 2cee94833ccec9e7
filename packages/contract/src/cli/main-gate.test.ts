// The gate on the command line, in process against the mock: choosing what runs (and list showing it), the baseline, --seed, the config file; every bad input exit 2 naming the field.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createMockServer } from '@payment-service/mock';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { createDriftProxy } from '../drift/index.js';
import type { ContractReport } from '../report.js';
import { type CliIo, main } from './main.js';

const key = 'sk_test_gate_cli_0123456789';
const mocks: Array<ReturnType<typeof createMockServer>> = [];
afterAll(() => {
  for (const mock of mocks) mock.close();
});

/** A fresh in-process mock (optionally drifted), and what was sent to it. */
function target(drifts: string[] = []) {
  const mock = createMockServer();
  mocks.push(mock);
  const sent: Array<{ idempotencyKey: string | null; body: string }> = [];
  const upstream = async (request: Request) => {
    sent.push({
      idempotencyKey: request.headers.get('idempotency-key'),
      body: request.method === 'POST' ? await request.clone().text() : '',
    });
    return mock.fetch(request);
  };
  return {
    sent,
    fetch: drifts.length > 0 ? createDriftProxy(upstream, drifts as never) : upstream,
  };
}

async function run(argv: string[], options: Partial<CliIo> & { cwd?: string } = {}) {
  let stdout = '';
  let stderr = '';
  const cwd = options.cwd ?? temporaryDirectory('contract-gate-');
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { PAYMENT_SERVICE_API_KEY: key },
    fetch: options.fetch ?? target().fetch,
    ...options,
    cwd,
  };
  const code = await main(argv, io);
  let report: ContractReport | undefined;
  try {
    report = JSON.parse(await readFile(join(cwd, 'report.json'), 'utf8'));
  } catch {}
  return { code, stdout, stderr, cwd, report };
}

const check = (...more: string[]) => [
  'check',
  '--base-url',
  'http://mock.local',
  '--rate',
  '100000',
  '--format',
  'json:report.json',
  ...more,
];

describe('choosing what runs', () => {
  it('--operation createPayment runs only its checks and the scenarios they need: fewer requests than a full run', async () => {
    const full = await run(check());
    const only = await run(check('--operation', 'createPayment'));
    expect(full.code).toBe(0);
    expect(only.code).toBe(0);
    const operations = new Set(only.report?.checks.map((item) => item.operation));
    expect([...operations]).toEqual(['createPayment']);
    expect(only.report?.selection).toEqual({ operations: ['createPayment'] });
    expect(only.report?.requests).toBeLessThan((full.report?.requests ?? 0) * 0.75);
    expect(Object.keys(only.report?.scenarioDurations ?? {})).not.toContain('listing');
  }, 120_000);

  it('--check, --exclude and --provenance narrow the checks', async () => {
    const { code, report } = await run(
      check(
        '--scenario',
        'create-payment',
        '--check',
        'createPayment.*',
        '--exclude',
        '*.pending',
        '--provenance',
        'inferred',
      ),
    );
    expect(code).toBe(0);
    expect(report?.checks.length).toBeGreaterThan(0);
    for (const item of report?.checks ?? []) {
      expect(item.id).toMatch(/^createPayment\./);
      expect(item.id).not.toBe('createPayment.pending');
      expect(item.element.provenance.kind).toBe('inferred');
    }
  }, 60_000);

  it.each([
    [
      ['--operation', 'createPaymnt'],
      /--operation "createPaymnt" is not an operation; use one of .*createPayment/,
    ],
    [['--check', 'nothing.like.this*'], /--check "nothing\.like\.this\*" matches no check/],
    [['--exclude', 'zzz'], /--exclude "zzz" matches no check/],
    [['--provenance', 'maybe'], /--provenance must be documented or inferred, not "maybe"/],
    [['--seed=-1'], /--seed must be a whole number from 0 to 4294967295/],
    [['--seed', '4294967296'], /--seed must be a whole number/],
    [['--update-baseline'], /--update-baseline needs --baseline FILE/],
    [['--baseline', 'missing.json'], /--baseline missing\.json: cannot read it \(ENOENT\)/],
    [['--check', 'routes.*', '--provenance', 'documented'], /leaves no check to run/],
  ])('%j: exit 2 naming the flag, nothing sent', async (flags, message) => {
    const { fetch, sent } = target();
    const { code, stderr } = await run(check(...flags), { fetch });
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(sent).toHaveLength(0);
  });

  it('an unknown operation lists the valid ones, bounded', async () => {
    const { stderr } = await run(check('--operation', 'nope'));
    const listed = stderr.split('use one of ')[1]?.split(', ') ?? [];
    expect(listed.length).toBeGreaterThan(5);
    expect(listed.length).toBeLessThanOrEqual(31);
  });

  it('list shows only what would run, and refuses what check refuses', async () => {
    const all = await run(['list', '--format', 'json']);
    const only = await run(['list', '--format', 'json', '--operation', 'listPayments']);
    const documented = await run(['list', '--provenance', 'documented']);
    const excluded = await run(['list', '--format', 'json', '--exclude', 'createPayment.*']);
    const allChecks = JSON.parse(all.stdout) as Array<{ id: string; operation: string }>;
    const listed = JSON.parse(only.stdout) as Array<{ operation: string }>;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThan(allChecks.length);
    expect(listed.every((item) => item.operation === 'listPayments')).toBe(true);
    expect(documented.stdout).toMatch(/^6 scenario checks \(6 documented, 0 inferred\)/);
    expect(
      JSON.parse(excluded.stdout).some((item: { id: string }) =>
        item.id.startsWith('createPayment.'),
      ),
    ).toBe(false);
    const bad = await run(['list', '--check', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--check "nope" matches no check');
  });
});

describe('--baseline', () => {
  const drifted = ['completed-instead-of-succeeded'];
  const failing = 'createPayment.captured-is-succeeded';
  const baseline = async (cwd: string, known: unknown[]) =>
    writeFile(join(cwd, 'baseline.json'), JSON.stringify({ version: 1, known }));

  it('known: a listed failure is reported as known and does not fail the run', async () => {
    const cwd = temporaryDirectory('contract-gate-');
    await baseline(cwd, [
      {
        check: failing,
        operation: 'createPayment',
        reason: 'PROV-12: the provider says COMPLETED',
        expires: '2999-12-31',
      },
    ]);
    const { code, report, stdout } = await run(
      check('--scenario', 'create-payment', '--baseline', 'baseline.json', '--format', 'text'),
      { cwd, fetch: target(drifted).fetch },
    );
    expect(code).toBe(0);
    const item = report?.checks.find((entry) => entry.id === failing);
    expect(item).toMatchObject({
      outcome: 'failed',
      baseline: { state: 'known', reason: 'PROV-12: the provider says COMPLETED' },
    });
    expect(report?.summary).toMatchObject({ known: 1, knownDocumented: 1, failedDocumented: 0 });
    expect(stdout).toContain(
      'Known failures (1 check, 1 check × operation result), accepted by baseline.json',
    );
    // The documented fact does not hold (the baseline only accepts that): the verdict says what is true.
    expect(report?.message).toMatch(
      /^PASSED: no new documented failure; .*; 1 known failure accepted by baseline\.json, 1 documented \(/,
    );
    expect(report?.message).not.toContain('holds');
    expect(report?.baseline).toMatchObject({ known: 1, knownDocumented: 1 });
  }, 60_000);

  it('new: a failure the baseline does not list still fails the run', async () => {
    const cwd = temporaryDirectory('contract-gate-');
    await baseline(cwd, [{ check: 'createPayment.pending', reason: 'another one' }]);
    const { code, report } = await run(
      check('--scenario', 'create-payment', '--baseline', 'baseline.json'),
      { cwd, fetch: target(drifted).fetch },
    );
    expect(code).toBe(1);
    expect(report?.checks.find((entry) => entry.id === failing)?.baseline).toBeUndefined();
  }, 60_000);

  it('expired: an entry past its date fails the run, saying which', async () => {
    const cwd = temporaryDirectory('contract-gate-');
    await baseline(cwd, [{ check: failing, reason: 'until the fix', expires: '2020-01-31' }]);
    const { code, report } = await run(
      check('--scenario', 'create-payment', '--baseline', 'baseline.json'),
      { cwd, fetch: target(drifted).fetch },
    );
    expect(code).toBe(1);
    expect(report?.message).toContain(`baseline entry ${failing} expired on 2020-01-31`);
    expect(report?.baseline?.expired).toEqual([{ check: failing, expires: '2020-01-31' }]);
  }, 60_000);

  it('fixed: an entry whose check passes is reported as fixed, remove it', async () => {
    const cwd = temporaryDirectory('contract-gate-');
    await baseline(cwd, [{ check: failing, operation: 'createPayment', reason: 'was broken' }]);
    const { code, report } = await run(
      check('--scenario', 'create-payment', '--baseline', 'baseline.json'),
      { cwd },
    );
    expect(code).toBe(0);
    expect(report?.baseline?.fixed).toEqual([
      { check: failing, operation: 'createPayment', reason: 'was broken' },
    ]);
    expect(report?.message).toContain(
      `fixed, remove from baseline.json: ${failing} (createPayment)`,
    );
  }, 60_000);

  it.each([
    [
      { version: 1, known: [{ check: failing, reason: 'x', expires: '31.12.2026' }] },
      'baseline.known[0].expires: expected a date YYYY-MM-DD',
    ],
    [{ version: 1, known: [{ check: failing }] }, 'baseline.known[0].reason: is required'],
    [{ version: 2, known: [] }, 'baseline.version: expected 1'],
    [
      { version: 1, known: [{ check: failing, reason: 'x', why: 'y' }] },
      'baseline.known[0]: unknown field "why"',
    ],
  ])('a bad baseline is exit 2 naming the field: %j', async (content, message) => {
    const cwd = temporaryDirectory('contract-gate-');
    await writeFile(join(cwd, 'baseline.json'), JSON.stringify(content));
    const { code, stderr } = await run(check('--baseline', 'baseline.json'), { cwd });
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('--update-baseline writes the failures (a placeholder reason for new ones), keeps the reasons given, and drops fixed entries', async () => {
    const cwd = temporaryDirectory('contract-gate-');
    const first = await run(
      check(
        '--scenario',
        'create-payment',
        '--baseline',
        'contract-baseline.json',
        '--update-baseline',
      ),
      { cwd, fetch: target(drifted).fetch },
    );
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(
      /wrote the baseline to contract-baseline\.json: \d+ known failure\(s\), \d+ with the placeholder reason/,
    );
    const written = JSON.parse(await readFile(join(cwd, 'contract-baseline.json'), 'utf8'));
    const entry = written.known.find((item: { check: string }) => item.check === failing);
    expect(entry).toMatchObject({
      operation: 'createPayment',
      reason: expect.stringMatching(/^TODO: say why this failure is accepted/),
    });
    entry.reason = 'PROV-12';
    written.known.push({
      check: 'createPayment.pending',
      operation: 'createPayment',
      reason: 'fixed since',
    });
    written.known.push({
      check: 'listPayments.limit',
      operation: 'listPayments',
      reason: 'not run here',
    });
    await writeFile(join(cwd, 'contract-baseline.json'), JSON.stringify(written));

    const again = await run(
      check(
        '--scenario',
        'create-payment',
        '--baseline',
        'contract-baseline.json',
        '--update-baseline',
      ),
      { cwd, fetch: target(drifted).fetch },
    );
    expect(again.code).toBe(0);
    const rewritten = JSON.parse(await readFile(join(cwd, 'contract-baseline.json'), 'utf8'));
    const checks = rewritten.known.map((item: { check: string }) => item.check);
    expect(rewritten.known.find((item: { check: string }) => item.check === failing).reason).toBe(
      'PROV-12',
    );
    expect(checks).not.toContain('createPayment.pending');
    expect(checks).toContain('listPayments.limit');

    const judged = await run(
      check('--scenario', 'create-payment', '--baseline', 'contract-baseline.json'),
      {
        cwd,
        fetch: target(drifted).fetch,
      },
    );
    expect(judged.code).toBe(0);
  }, 120_000);
});

describe('--seed', () => {
  it('two runs with the same seed send the same Idempotency-Keys and markers; another seed, others; the report prints it', async () => {
    const runWith = async (seed: string) => {
      const { fetch, sent } = target();
      const result = await run(
        check('--scenario', 'idempotency', '--seed', seed, '--format', 'text'),
        { fetch },
      );
      expect(result.code).toBe(0);
      return { sent, ...result };
    };
    const first = await runWith('42');
    const second = await runWith('42');
    const other = await runWith('43');
    const keys = (sent: typeof first.sent) =>
      sent.map((item) => item.idempotencyKey).filter(Boolean);
    const markers = (sent: typeof first.sent) =>
      sent.map((item) => /"description":"([^"]*)"/.exec(item.body)?.[1]).filter(Boolean);
    expect(keys(first.sent).length).toBeGreaterThan(3);
    expect(keys(second.sent)).toEqual(keys(first.sent));
    expect(markers(second.sent)).toEqual(markers(first.sent));
    expect(keys(other.sent)).not.toEqual(keys(first.sent));
    expect(first.report?.seed).toBe(42);
    expect(first.stdout).toContain('seed 42');
    expect(first.stderr).toContain('seed 42 (--seed 42 repeats its keys and markers)');
  }, 120_000);

  it('without --seed, a run picks one and prints it', async () => {
    const { report, stderr } = await run(check('--scenario', 'create-payment'));
    expect(Number.isInteger(report?.seed)).toBe(true);
    expect(stderr).toContain(`seed ${report?.seed}`);
  }, 60_000);
});

describe('the config file', () => {
  const config = async (
    cwd: string,
    value: unknown,
    file = 'payment-service-contract.config.json',
  ) => writeFile(join(cwd, file), JSON.stringify(value));

  it('supplies the flags it holds; a flag overrides it', async () => {
    const cwd = temporaryDirectory('contract-gate-');
    await config(cwd, {
      $schema: './node_modules/@payment-service/contract/schema/config.schema.json',
      baseUrl: 'http://mock.local',
      keyEnv: 'SANDBOX_KEY',
      failOn: 'none',
      rate: 100000,
      scenarios: ['create-payment'],
      seed: 7,
      reports: [{ format: 'json', output: 'report.json' }],
    });
    const fetch = target(['completed-instead-of-succeeded']).fetch;
    const fromFile = await run(['check'], { cwd, fetch, env: { SANDBOX_KEY: key } });
    expect(fromFile.code).toBe(0);
    expect(fromFile.report).toMatchObject({ seed: 7, policy: { failOn: 'none' } });
    const overridden = await run(['check', '--fail-on', 'documented', '--seed', '8'], {
      cwd,
      fetch,
      env: { SANDBOX_KEY: key },
    });
    expect(overridden.code).toBe(1);
    expect(overridden.report).toMatchObject({ seed: 8, policy: { failOn: 'documented' } });
  }, 60_000);

  it('--config PATH reads another file, its baseline relative to it', async () => {
    const cwd = temporaryDirectory('contract-gate-');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(cwd, 'ci'));
    await config(cwd, { operations: ['listPayments'], baseline: 'known.json' }, 'ci/contract.json');
    await writeFile(join(cwd, 'ci/known.json'), JSON.stringify({ version: 1, known: [] }));
    const listed = await run(['list', '--format', 'json', '--config', 'ci/contract.json'], { cwd });
    expect(
      JSON.parse(listed.stdout).every(
        (item: { operation: string }) => item.operation === 'listPayments',
      ),
    ).toBe(true);
    const checked = await run(check('--config', 'ci/contract.json'), { cwd });
    expect(checked.code).toBe(0);
    expect(checked.report?.baseline?.file).toBe(join('ci', 'known.json'));
  }, 60_000);

  it.each([
    [{ failOn: 'sometimes' }, 'config.failOn: expected one of documented, inferred, any, none'],
    [{ rate: -1 }, 'config.rate: expected a number > 0'],
    [{ reports: [{ format: 'pdf' }] }, 'config.reports[0].format: expected one of text, junit'],
    [{ scenarios: ['nope'] }, 'config.scenarios[0]: expected one of create-payment'],
    [{ seed: 1.5 }, 'config.seed: expected integer'],
    [{ colour: 'blue' }, 'config: unknown field "colour"'],
    [{ baseUrl: 'ftp://x' }, 'config.baseUrl: expected an http(s) URL'],
    [{ keyEnv: 'sk_test_abcdefghijklmnopqrstu' }, 'config.keyEnv: holds a secret key (sk_…)'],
    [
      { scenarios: ['x_sk_test_abcdefghijklmnopqrstu'] },
      'config.scenarios[0]: holds a secret key (sk_…)',
    ],
    [
      { baseUrl: 'http://127.0.0.1:4010/?k=sk%5Ftest%5Fabcdefghijklmnopqrstu' },
      'config.baseUrl: holds a secret key (sk_…)',
    ],
    [{ key: 'abc' }, 'config.key: a config file holds no key; set keyEnv'],
    [{ keyEnv: 'UNSET_VARIABLE' }, 'config.keyEnv: names UNSET_VARIABLE, which is not set'],
  ])('a bad config is exit 2 naming the field: %j', async (value, message) => {
    const cwd = temporaryDirectory('contract-gate-');
    await config(cwd, value);
    const { code, stderr } = await run(check(), { cwd, env: {} });
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).not.toContain('sk_test_abcdefghijklmnopqrstu');
  });

  it('a missing --config file is exit 2; --help works whatever the config', async () => {
    const cwd = temporaryDirectory('contract-gate-');
    expect((await run(check('--config', 'nope.json'), { cwd })).stderr).toContain(
      '--config nope.json: cannot read it (ENOENT)',
    );
    await config(cwd, { failOn: 'sometimes' });
    expect((await run(['check', '--help'], { cwd })).code).toBe(0);
  });
});
