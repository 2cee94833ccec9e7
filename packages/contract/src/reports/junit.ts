// The JUnit XML report for CI test tabs (built with XMLBuilder): one testsuite per operation, one testcase per check, provenance in the failure and in properties.

import { XMLBuilder } from 'fast-xml-parser';
import type { CheckResult } from '../checks/ledger.js';
import type { ContractReport } from '../report.js';
import { baselineLine, elementLine, evidenceLines, groupBy, provenanceLine } from './shared.js';

/**
 * Escapes text for XML 1.0 content and attribute values, dropping characters XML cannot carry.
 *
 * @example
 * escapeXml('a < b & "c"'); // 'a &lt; b &amp; &quot;c&quot;'
 */
export function escapeXml(text: string): string {
  return xmlSafe(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** XML 1.0 cannot carry some characters at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF): each becomes U+FFFD. */
const xmlSafe = (text: string) =>
  text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');

/** The builder escapes &, <, >, quotes and apostrophes in text and attributes (so `]]>` never closes anything). */
const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  processEntities: true,
});

type XmlNode = { [name: string]: string | number | XmlNode | XmlNode[] };

/** Attributes for the builder, their text made XML-safe. */
const attributes = (values: Record<string, string | number>): XmlNode =>
  Object.fromEntries(
    Object.entries(values).map(([name, value]) => [`@${name}`, xmlSafe(String(value))]),
  );

function properties(check: CheckResult): XmlNode {
  const { element } = check;
  const values: Array<[string, string | number | undefined]> = [
    ['provenance', element.provenance.kind],
    ['provenance.section', element.provenance.section],
    ['provenance.note', element.provenance.note],
    ['spec.pointer', element.pointer],
    ['spec.value', element.value],
    ['spec.file', element.file],
    ['spec.line', element.line],
    ['check.kind', check.kind],
    ['runs', check.runs],
    ['failures', check.failures],
    ['scenarios', check.scenarios?.join(', ')],
    ['baseline', check.baseline ? baselineLine(check) : undefined],
  ];
  return {
    property: values
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => attributes({ name, value: value as string | number })),
  };
}

/** Seconds, as JUnit's `time` attributes carry them. */
const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

function testcase(check: CheckResult): XmlNode {
  const node: XmlNode = {
    ...attributes({
      classname: check.operation,
      name: `${check.id}: ${check.title}`,
      time: seconds(check.durationMs ?? 0),
    }),
    properties: properties(check),
  };
  // A check the run never reached because it stopped (exit 3 or 4) is an error, not a skip.
  if (check.outcome === 'skipped' && check.stopped)
    node.error = attributes({ message: check.skipReason ?? 'the run stopped', type: 'stopped' });
  else if (check.outcome === 'skipped')
    node.skipped = attributes({ message: check.skipReason ?? '' });
  if (check.outcome === 'failed' && check.baseline?.state === 'known') {
    // A known failure (the baseline accepts it) does not fail the run: a skip, as pytest reports an xfail.
    node.skipped = attributes({ message: baselineLine(check) });
  } else if (check.outcome === 'failed') {
    const example = check.example;
    const message = `[${check.element.provenance.kind}] ${provenanceLine(check)}: expected ${example?.expected}, got ${example?.actual}`;
    const details = [
      `${check.id}: ${check.title}`,
      `element    ${elementLine(check)}`,
      `provenance ${provenanceLine(check)}`,
      ...(check.baseline ? [`baseline   ${baselineLine(check)}`] : []),
      ...evidenceLines(check).map(([label, value]) => `${label.padEnd(10)} ${value}`),
    ].join('\n');
    node.failure = {
      ...attributes({ message, type: check.element.provenance.kind }),
      '#text': xmlSafe(details),
    };
  }
  return node;
}

/**
 * Renders a report as JUnit XML (built with fast-xml-parser's XMLBuilder): each testcase's `time`
 * is the real time of the scenarios that evaluated its check, read on the run's clock.
 *
 * @example
 * writeFileSync('report.xml', formatJunit(report));
 */
export function formatJunit(report: ContractReport): string {
  const counted = (check: CheckResult) => check.baseline?.state !== 'known';
  const count = (checks: CheckResult[], outcome: CheckResult['outcome']) =>
    checks.filter((check) => check.outcome === outcome && !check.stopped && counted(check)).length;
  const skippedCount = (checks: CheckResult[]) =>
    count(checks, 'skipped') + checks.filter((check) => !counted(check)).length;
  const stopped = (checks: CheckResult[]) => checks.filter((check) => check.stopped).length;
  const runError =
    report.errors.length > 0 ||
    report.exitCode === 2 ||
    report.exitCode === 3 ||
    report.exitCode === 4;
  const suites = [...groupBy(report.checks, (check) => check.operation)].sort(([a], [b]) =>
    a.localeCompare(b),
  );
  const durations = report.scenarioDurations ?? {};
  /** A suite's time: each scenario that evaluated its checks once, plus its spec checks' share of their exchanges. */
  const suiteTime = (checks: CheckResult[]) => {
    const scenarios = new Set(checks.flatMap((check) => check.scenarios ?? []));
    const scenarioTime = [...scenarios].reduce((sum, id) => sum + (durations[id] ?? 0), 0);
    const schemaTime = checks
      .filter((check) => check.kind === 'schema')
      .reduce((sum, check) => sum + (check.durationMs ?? 0), 0);
    return scenarioTime + schemaTime;
  };
  const runProperties: XmlNode = {
    property: [
      ...(report.seed === null ? [] : [attributes({ name: 'seed', value: report.seed })]),
      ...(report.baseline ? [attributes({ name: 'baseline', value: report.baseline.file })] : []),
    ],
  };
  const testsuite: XmlNode[] = suites.map(([operation, checks]) => ({
    ...attributes({
      name: operation,
      tests: checks.length,
      failures: count(checks, 'failed'),
      errors: stopped(checks),
      skipped: skippedCount(checks),
      time: seconds(suiteTime(checks)),
      timestamp: report.startedAt.replace(/\.\d+Z$/, ''),
    }),
    properties: runProperties,
    testcase: checks.map(testcase),
  }));
  if (runError) {
    const text = [
      report.message,
      ...report.errors.slice(0, 20).map((error) => `${error.scenario}: ${error.message}`),
    ].join('\n');
    testsuite.push({
      ...attributes({
        name: 'run',
        tests: 1,
        failures: 0,
        errors: 1,
        skipped: 0,
        time: seconds(report.durationMs),
      }),
      testcase: [
        {
          ...attributes({
            classname: 'run',
            name: 'the run completes',
            time: seconds(report.durationMs),
          }),
          error: {
            ...attributes({ message: report.message, type: report.verdict }),
            '#text': xmlSafe(text),
          },
        },
      ],
    });
  }
  const document = {
    '?xml': { '@version': '1.0', '@encoding': 'UTF-8' },
    testsuites: {
      ...attributes({
        name: `payment-service-contract ${report.target.baseUrl}`,
        tests: report.checks.length,
        failures: count(report.checks, 'failed'),
        errors: stopped(report.checks) + (runError ? 1 : 0),
        skipped: skippedCount(report.checks),
        time: seconds(report.durationMs),
      }),
      testsuite,
    },
  };
  return `${builder.build(document).trimEnd()}\n`;
}
