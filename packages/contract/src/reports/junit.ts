// The JUnit XML report for CI test tabs: one testsuite per operation, one testcase per check, provenance in the failure and in properties.
import type { CheckResult } from '../checks/ledger.js';
import type { ContractReport } from '../report.js';
import { elementLine, evidenceLines, groupBy, provenanceLine } from './shared.js';

/**
 * Escapes text for XML 1.0 content and attribute values, dropping characters XML cannot carry.
 *
 * @example
 * escapeXml('a < b & "c"'); // 'a &lt; b &amp; &quot;c&quot;'
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const attributes = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => `${name}="${escapeXml(String(value))}"`)
    .join(' ');

function properties(check: CheckResult): string[] {
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
  ];
  return [
    '      <properties>',
    ...values
      .filter(([, value]) => value !== undefined)
      .map(
        ([name, value]) =>
          `        <property ${attributes({ name, value: value as string | number })}/>`,
      ),
    '      </properties>',
  ];
}

/** Seconds, as JUnit's `time` attributes carry them. */
const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

function testcase(check: CheckResult): string[] {
  const open = `    <testcase ${attributes({ classname: check.operation, name: `${check.id}: ${check.title}`, time: seconds(check.durationMs ?? 0) })}>`;
  const body = properties(check);
  // A check the run never reached because it stopped (exit 3 or 4) is an error, not a skip.
  if (check.outcome === 'skipped' && check.stopped)
    body.push(
      `      <error ${attributes({ message: check.skipReason ?? 'the run stopped', type: 'stopped' })}/>`,
    );
  else if (check.outcome === 'skipped')
    body.push(`      <skipped ${attributes({ message: check.skipReason ?? '' })}/>`);
  if (check.outcome === 'failed') {
    const example = check.example;
    const message = `[${check.element.provenance.kind}] ${provenanceLine(check)}: expected ${example?.expected}, got ${example?.actual}`;
    const details = [
      `${check.id}: ${check.title}`,
      `element    ${elementLine(check)}`,
      `provenance ${provenanceLine(check)}`,
      ...evidenceLines(check).map(([label, value]) => `${label.padEnd(10)} ${value}`),
    ].join('\n');
    body.push(
      `      <failure ${attributes({ message, type: check.element.provenance.kind })}>${escapeXml(details)}</failure>`,
    );
  }
  return [open, ...body, '    </testcase>'];
}

/**
 * Renders a report as JUnit XML.
 *
 * @example
 * writeFileSync('report.xml', formatJunit(report));
 */
export function formatJunit(report: ContractReport): string {
  const count = (checks: CheckResult[], outcome: CheckResult['outcome']) =>
    checks.filter((check) => check.outcome === outcome && !check.stopped).length;
  const stopped = (checks: CheckResult[]) => checks.filter((check) => check.stopped).length;
  const runError =
    report.errors.length > 0 ||
    report.exitCode === 2 ||
    report.exitCode === 3 ||
    report.exitCode === 4;
  const suites = [...groupBy(report.checks, (check) => check.operation)].sort(([a], [b]) =>
    a.localeCompare(b),
  );
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attributes({
      name: `payment-service-contract ${report.target.baseUrl}`,
      tests: report.checks.length,
      failures: count(report.checks, 'failed'),
      errors: stopped(report.checks) + (runError ? 1 : 0),
      skipped: count(report.checks, 'skipped'),
      time: seconds(report.durationMs),
    })}>`,
  ];
  for (const [operation, checks] of suites) {
    lines.push(
      `  <testsuite ${attributes({
        name: operation,
        tests: checks.length,
        failures: count(checks, 'failed'),
        errors: stopped(checks),
        skipped: count(checks, 'skipped'),
        time: seconds(checks.reduce((sum, check) => sum + (check.durationMs ?? 0), 0)),
        timestamp: report.startedAt.replace(/\.\d+Z$/, ''),
      })}>`,
    );
    for (const check of checks) lines.push(...testcase(check));
    lines.push('  </testsuite>');
  }
  if (runError) {
    lines.push(
      `  <testsuite ${attributes({ name: 'run', tests: 1, failures: 0, errors: 1, skipped: 0, time: seconds(report.durationMs) })}>`,
    );
    lines.push(
      `    <testcase ${attributes({ classname: 'run', name: 'the run completes', time: seconds(report.durationMs) })}>`,
    );
    const text = [
      report.message,
      ...report.errors.slice(0, 20).map((error) => `${error.scenario}: ${error.message}`),
    ].join('\n');
    lines.push(
      `      <error ${attributes({ message: report.message, type: report.verdict })}>${escapeXml(text)}</error>`,
    );
    lines.push('    </testcase>', '  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
