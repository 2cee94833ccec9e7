// The report formats on a real drifted run: well-formed JUnit, JSON that follows its schema, Markdown, GitHub annotations, and never the key.
import { createMockServer } from '@payment-service/mock';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVIDENCE_CHARS } from '../checks/ledger.js';
import { createDriftProxy } from '../drift/index.js';
import type { ContractReport } from '../report.js';
import { recordExchange } from '../runner/exchange-record.js';
import { runContractCheck } from '../runner/run.js';
import { curlCommand, shellQuote } from './curl.js';
import { formatBounded, formatters, REPORT_LIMITS } from './index.js';
import { reportJsonSchema } from './json.js';
import { escapeXml } from './junit.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const apiKey = 'sk_test_reports_secret_key_123';

describe('the report formats', () => {
  const mock = createMockServer();
  let report: ContractReport;
  beforeAll(async () => {
    report = await runContractCheck({
      baseUrl: 'http://mock.local',
      apiKey,
      fetch: createDriftProxy(
        (request) => mock.fetch(request),
        ['missing-object', 'ok-instead-of-created'],
      ),
      rate: Number.POSITIVE_INFINITY,
      scenarios: ['create-payment', 'webhooks', 'webhook-endpoints'],
    });
  }, 120_000);
  afterAll(() => mock.close());

  it.each(Object.keys(formatters))('%s never contains the key or a webhook secret', (format) => {
    const text = formatters[format as keyof typeof formatters](report);
    expect(text).not.toContain(apiKey);
    expect(text).not.toMatch(/whsec_[A-Za-z0-9+/=]{8,}/);
  });

  it('junit: well-formed, one testsuite per operation, one testcase per check, provenance in the failure and properties', () => {
    const xml = formatters.junit(report);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
    }).parse(xml);
    const suites = parsed.testsuites.testsuite as Array<{
      name: string;
      testcase: Array<{
        name: string;
        failure?: { message: string; type: string };
        skipped?: unknown;
        properties: { property: Array<{ name: string; value: string }> };
      }>;
    }>;
    expect(new Set(suites.map((suite) => suite.name)).size).toBe(suites.length);
    const cases = suites.flatMap((suite) => suite.testcase);
    expect(cases).toHaveLength(report.checks.length);
    const object = cases.find((testcase) => testcase.name.startsWith('schema.Payment.object'));
    expect(object?.failure?.type).toBe('documented');
    expect(object?.failure?.message).toContain('[documented] documented (provider document §2.1)');
    expect(object?.properties.property).toEqual(
      expect.arrayContaining([
        { name: 'provenance', value: 'documented' },
        { name: 'provenance.section', value: '2.1' },
      ]),
    );
    const status = cases.find(
      (testcase) => testcase.name.startsWith('status.success') && testcase.failure,
    );
    expect(status?.failure?.type).toBe('inferred');
    expect(cases.filter((testcase) => testcase.skipped !== undefined).length).toBe(
      report.summary.skipped,
    );
    expect(Number(parsed.testsuites.failures)).toBe(report.summary.failed);
  });

  it('json: follows the documented schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(reportJsonSchema);
    const parsed = JSON.parse(formatters.json(report));
    expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
    expect(parsed.summary.failedDocumented).toBeGreaterThan(0);
  });

  it('markdown: the verdict, counts by provenance, each failure with its reproduction', () => {
    const markdown = formatters.markdown(report);
    expect(markdown).toMatch(/^## ❌ Contract check: failed/);
    expect(markdown).toContain('| failed | ');
    expect(markdown).toContain('### Documented checks failed');
    expect(markdown).toContain('```sh\ncurl -sS -i -X POST');
    expect(markdown).toContain('needs a webhook receiver');
  });

  it('github: an error per failure the policy counts, a warning for the others, on the spec line', () => {
    const lines = formatters.github(report).trim().split('\n');
    const object = lines.find((line) => line.includes('schema.Payment.object'));
    expect(object).toMatch(
      /^::error file=spec\/openapi\.yaml,line=\d+,title=\[documented\] schema\.Payment\.object::/,
    );
    const status = lines.find((line) => line.includes('title=[inferred] status.success'));
    expect(status).toMatch(/^::warning /);
    expect(lines.every((line) => !line.slice(2).includes('\n'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^::error title=payment-service-contract::FAILED/);
  });

  it('text: documented failures first, skipped checks by reason, then the verdict', () => {
    const text = formatters.text(report);
    expect(text.indexOf('Documented checks failed')).toBeLessThan(
      text.indexOf('Inferred checks failed'),
    );
    expect(text).toContain('failed in  ');
    expect(text).toContain('reproduce  curl');
    expect(text.trim().split('\n').at(-1)).toMatch(/^FAILED: /);
  });

  it('text and markdown: a heading names its checks and its results, the summary its results', () => {
    // missing-object fails one check on several operations: 1 check, more results.
    const text = formatters.text(report);
    const markdown = formatters.markdown(report);
    const { failedDocumented, failedInferred } = report.summary;
    expect(failedDocumented).toBeGreaterThan(1);
    for (const [kind, results] of [
      ['Documented', failedDocumented],
      ['Inferred', failedInferred],
    ] as const) {
      const heading = new RegExp(
        `${kind} checks failed \\((\\d+) checks?, (\\d+) check × operation results?\\)`,
      );
      for (const format of [text, markdown]) {
        const [, checks, shown] = heading.exec(format) ?? [];
        expect(Number(shown), `${kind} results`).toBe(results);
        expect(Number(checks)).toBeLessThanOrEqual(results);
      }
    }
    expect(text).toContain(
      `${report.summary.checks} check × operation results: ${report.summary.passed} passed, ${failedDocumented} documented and ${failedInferred} inferred failed`,
    );
  });
});

describe('the seed line', () => {
  it('markdown names --seed when the run had one, and nothing for traffic that was not ours', async () => {
    const mock = createMockServer();
    const report = await runContractCheck({
      baseUrl: 'http://mock.local',
      apiKey,
      fetch: (request) => mock.fetch(request),
      rate: Number.POSITIVE_INFINITY,
      scenarios: ['create-payment'],
      seed: 7,
    });
    mock.close();
    expect(formatters.markdown(report)).toContain('`--seed 7`');
    const traffic = formatters.markdown({ ...report, seed: null });
    expect(traffic).not.toContain('--seed');
  }, 120_000);
});

describe('escaping', () => {
  it('escapes XML and drops characters XML 1.0 cannot carry', () => {
    expect(escapeXml(`a<b>&"c"'d'\u0001`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;\uFFFD');
    expect(
      XMLValidator.validate(`<x a="${escapeXml('"]]><!--\u0000')}">${escapeXml('</x>\uFFFE')}</x>`),
    ).toBe(true);
  });

  it('quotes for the shell and reproduces a request with the key from the environment', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    const request = {
      method: 'POST',
      url: 'http://127.0.0.1:4010/v1/payments',
      headers: new Headers({
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
      }),
    };
    const record = recordExchange(
      request,
      `{"description":"it's ${apiKey}"}`,
      { status: 400, headers: new Headers() },
      `{"code":"invalid_request","detail":"${apiKey} whsec_abcdefgh"}`,
      apiKey,
    );
    const curl = curlCommand(record);
    expect(curl).toBe(
      `curl -sS -i -X POST 'http://127.0.0.1:4010/v1/payments' -H "authorization: Bearer $PAYMENT_SERVICE_API_KEY" -H 'content-type: application/json' --data-raw '{"description":"it'\\''s sk_test_…"}'`,
    );
    expect(record.bodyExcerpt).toBe('{"code":"invalid_request","detail":"sk_test_… whsec_…"}');
    expect(record.code).toBe('invalid_request');
  });

  it('rebuilds a long repetitive body with node instead of printing it', () => {
    const request = { method: 'POST', url: 'http://h/v1/payments', headers: new Headers() };
    const body = `{"padding":"${'p'.repeat(80_000)}"}`;
    const curl = curlCommand(
      recordExchange(request, body, { status: 413, headers: new Headers() }, '', apiKey),
    );
    expect(curl.length).toBeLessThan(300);
    const script = /^node -e '(.*)' \| curl/.exec(curl)?.[1] ?? '';
    const rebuilt = new Function('process', script.replace(/'\\''/g, "'"));
    let written = '';
    rebuilt({ stdout: { write: (text: string) => (written = text) } });
    expect(written).toBe(body);
  });
});

describe('bounds', () => {
  const mock = createMockServer();
  let report: ContractReport;
  beforeAll(async () => {
    report = await runContractCheck({
      baseUrl: 'http://mock.local',
      apiKey,
      fetch: createDriftProxy((request) => mock.fetch(request), ['missing-object']),
      rate: Number.POSITIVE_INFINITY,
      scenarios: ['create-payment'],
    });
  }, 120_000);
  afterAll(() => mock.close());

  /** The run's report with 4 000 failed checks, each quoting a target at the longest it may. */
  function swollen(): ContractReport {
    const failed = report.checks.find((check) => check.outcome === 'failed');
    const exchange = failed?.example?.exchange;
    if (!failed || !exchange) throw new Error('the drifted run has no failure with evidence');
    // The longest a target's text gets in a report: MAX_EVIDENCE_CHARS of escapes, and the suffix.
    const longest = `${'\\u001b'.repeat(MAX_EVIDENCE_CHARS / 6)}… (999999 more characters)`;
    const checks = Array.from({ length: 4000 }, (_, index) => ({
      ...failed,
      id: `schema.Payment.metadata.k${index}`,
      example: {
        expected: longest,
        actual: longest,
        exchange: {
          ...exchange,
          code: longest,
          bodyExcerpt: longest,
          headers: { 'request-id': longest, 'content-type': longest },
        },
      },
    }));
    return { ...report, checks };
  }

  it('keeps Markdown under 1 MiB, saying how many failures it left out', () => {
    const markdown = formatBounded('markdown', swollen());
    expect(Buffer.byteLength(markdown)).toBeLessThanOrEqual(REPORT_LIMITS.markdown);
    expect(markdown).toMatch(/\d+ more failed checks not shown here/);
  });

  it.each(['text', 'github', 'junit', 'json'] as const)(
    'keeps %s within its stated bound',
    (format) => {
      const text = formatBounded(format, swollen());
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(REPORT_LIMITS[format]);
      if (format === 'json') expect(() => JSON.parse(text)).not.toThrow();
      if (format === 'junit') expect(XMLValidator.validate(text)).toBe(true);
    },
  );
});
