// SARIF that validates against the SARIF 2.1.0 schema, JUnit built with XMLBuilder: real times per check, escaping, bounded size; the seed in every report.
import { createRequire } from 'node:module';
import { createMockServer } from '@payment-service/mock';
import AjvDraft04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../checks/ledger.js';
import { createDriftProxy } from '../drift/index.js';
import type { ContractReport } from '../report.js';
import type { Clock } from '../runner/clock.js';
import { runContractCheck } from '../runner/run.js';
import { formatBounded, formatters, REPORT_LIMITS } from './index.js';

const require = createRequire(import.meta.url);
const sarifSchema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
const AjvDraft04 = AjvDraft04Module as unknown as new (
  options: object,
) => {
  compile(schema: object): ((value: unknown) => boolean) & { errors?: unknown };
};
const addFormats = addFormatsModule as unknown as (ajv: object) => void;
const apiKey = 'sk_test_sarif_junit_0123456789';

/** A clock that moves 7 ms at every reading: times are real readings of the injected clock, and exact. */
function steppingClock(): Clock {
  let now = Date.parse('2026-11-25T06:43:42Z');
  return {
    now: () => {
      now += 7;
      return now;
    },
    sleep: async (ms) => {
      now += ms;
    },
  };
}

describe('SARIF and JUnit', () => {
  const mock = createMockServer();
  let report: ContractReport;
  beforeAll(async () => {
    report = await runContractCheck({
      baseUrl: 'http://mock.local',
      apiKey,
      fetch: createDriftProxy(
        (request) => mock.fetch(request),
        ['completed-instead-of-succeeded', 'ok-instead-of-created'],
      ),
      rate: Number.POSITIVE_INFINITY,
      scenarios: ['create-payment', 'listing'],
      clock: steppingClock(),
      seed: 1234,
      baseline: {
        file: 'contract-baseline.json',
        entries: [{ check: 'createPayment.captured-is-succeeded', reason: 'PROV-12\u0007 ]]>' }],
      },
    });
  }, 120_000);
  afterAll(() => mock.close());

  it('sarif: a valid SARIF 2.1.0 log, rules with their provenance, results on the spec lines, the known failure suppressed', () => {
    const text = formatters.sarif(report);
    const ajv = new AjvDraft04({ strict: false, allErrors: true, unicodeRegExp: false });
    addFormats(ajv);
    const validate = ajv.compile(sarifSchema);
    const log = JSON.parse(text);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const run = log.runs[0];
    expect(run.tool.driver).toMatchObject({
      name: 'payment-service-contract',
      version: report.tool.version,
      informationUri: expect.stringMatching(/^https:\/\//),
    });
    const rule = run.tool.driver.rules.find(
      (item: { id: string }) => item.id === 'createPayment.captured-is-succeeded',
    );
    expect(rule.properties).toMatchObject({ provenance: 'documented', 'provenance.section': '3' });
    const known = run.results.find(
      (item: { ruleId: string }) => item.ruleId === 'createPayment.captured-is-succeeded',
    );
    expect(known).toMatchObject({
      level: 'note',
      baselineState: 'unchanged',
      suppressions: [{ kind: 'external', justification: 'PROV-12\\u0007 ]]>' }],
    });
    expect(known.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'spec/openapi.yaml' },
      region: { startLine: expect.any(Number) },
    });
    // Lines of the message are lines for a code-scanning tab, not an escaped "\u000a".
    expect(known.message.text.split('\n')[1]).toMatch(/^provenance: documented/);
    expect(known.message.text).not.toContain('\\u000a');
    const fresh = run.results.find((item: { ruleId: string }) => item.ruleId === 'status.success');
    expect(fresh).toMatchObject({ level: 'warning', baselineState: 'new' });
    expect(run.tool.driver.rules[fresh.ruleIndex].id).toBe('status.success');
    expect(run.properties.seed).toBe(1234);
    expect(text).not.toContain(apiKey);
  });

  it('sarif: target text cleaned, and bounded like the other reports', () => {
    const hostile: ContractReport = {
      ...report,
      checks: report.checks.map((check) =>
        check.example
          ? { ...check, example: { ...check.example, actual: '\u001b[31m\n::error::forged\u202e' } }
          : check,
      ),
    };
    const text = formatters.sarif(hostile);
    for (const raw of ['\\n::error::', '\u001b', '\u202e']) expect(text).not.toContain(raw);
    expect(text).toContain('\\\\u000a::error::forged');
    const huge: ContractReport = {
      ...report,
      checks: Array.from({ length: 3000 }, (_, index) => ({
        ...(report.checks.find((check) => check.outcome === 'failed') as CheckResult),
        id: `schema.Payment.field${index}`,
        title: 'x'.repeat(400),
      })),
    };
    expect(Buffer.byteLength(formatBounded('sarif', huge))).toBeLessThanOrEqual(
      REPORT_LIMITS.sarif,
    );
  });

  it("junit: each testcase's time is its scenario's real time on the injected clock; a suite counts each scenario once", () => {
    const xml = formatters.junit(report);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
    }).parse(xml);
    const cases = parsed.testsuites.testsuite.flatMap(
      (suite: { testcase: unknown[] }) => suite.testcase,
    ) as Array<{ name: string; time: string; skipped?: { message: string } }>;
    const durations = report.scenarioDurations ?? {};
    expect(durations['create-payment']).toBeGreaterThan(0);
    const pending = cases.find((item) => item.name.startsWith('createPayment.pending:'));
    expect(Number(pending?.time)).toBeCloseTo((durations['create-payment'] ?? 0) / 1000, 3);
    const creates = cases.find((item) => item.name.startsWith('createPayment.creates:'));
    expect(Number(creates?.time)).toBeCloseTo(
      ((durations['create-payment'] ?? 0) + (durations.listing ?? 0)) / 1000,
      3,
    );
    const known = cases.find((item) =>
      item.name.startsWith('createPayment.captured-is-succeeded:'),
    );
    expect(known?.skipped?.message).toContain('known failure: PROV-12\\u0007 ]]>');
    const suite = parsed.testsuites.testsuite.find(
      (item: { name: string }) => item.name === 'createPayment',
    );
    expect(suite.properties.property).toContainEqual({ name: 'seed', value: '1234' });
    expect(Number(suite.time)).toBeLessThan(
      cases.reduce((sum, item) => sum + Number(item.time), 0),
    );
  });

  it('junit: control characters, ]]> and markup in target text stay well formed', () => {
    const check = report.checks.find((item) => item.outcome === 'failed') as CheckResult;
    const hostile: ContractReport = {
      ...report,
      checks: [
        {
          ...check,
          baseline: undefined,
          title: 'a ]]> b <x/> & "q" \u0000\u0001\uFFFE',
          example: { expected: ']]><!--', actual: '\u0007</failure><testcase name="forged">' },
        },
      ],
    };
    const xml = formatters.junit(hostile);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain('<testcase name="forged">');
    expect(xml).toContain(']]&gt;');
  });

  it('every report names the seed', () => {
    for (const format of ['text', 'markdown', 'json', 'github', 'junit', 'sarif'] as const) {
      expect(formatters[format](report), format).toMatch(/1234/);
    }
  });
});
