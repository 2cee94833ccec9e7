// What every report format shows of a check: its element and provenance in one line, and its failure's evidence.
import type { CheckResult } from '../checks/ledger.js';
import { describeProvenance } from '../spec/elements.js';
import { curlCommand } from './curl.js';

/**
 * The spec element of a check: `spec/openapi.yaml:1381 /components/schemas/PaymentStatus (SUCCEEDED)`.
 *
 * @example
 * elementLine(check); // 'spec/openapi.yaml:1629 /components/schemas/Timestamp'
 */
export function elementLine(check: CheckResult): string {
  const { element } = check;
  const where = element.file ? `${element.file}:${element.line} ` : `${element.spec} spec `;
  const detail =
    element.value !== undefined
      ? ` (value ${element.value})`
      : element.facet === 'status'
        ? ' (status code)'
        : '';
  return `${where}${element.pointer}${detail}`;
}

/**
 * The provenance of a check in one line.
 *
 * @example
 * provenanceLine(check); // 'documented (provider document §2.1)'
 */
export function provenanceLine(check: CheckResult): string {
  return describeProvenance(check.element.provenance);
}

/**
 * What the baseline says of a check, in one line.
 *
 * @example
 * baselineLine(check); // 'known failure: JIRA-123 (until 2026-12-31)'
 */
export function baselineLine(check: CheckResult): string {
  const entry = check.baseline;
  if (!entry) return '';
  const label =
    entry.state === 'known'
      ? 'known failure'
      : entry.state === 'expired'
        ? `known failure whose entry expired on ${entry.expires}, so it fails the run`
        : 'passes: fixed, remove its entry';
  const until = entry.state === 'known' && entry.expires ? ` (until ${entry.expires})` : '';
  return `${label}: ${entry.reason}${until}`;
}

/**
 * How often a failed check failed.
 *
 * @example
 * failureCount(check); // '12 of 12 runs, 2 distinct answers'
 */
export function failureCount(check: CheckResult): string {
  const distinct = check.distinctFailures ?? 1;
  return `${check.failures} of ${check.runs} run${check.runs === 1 ? '' : 's'}${distinct > 1 ? `, ${distinct} distinct answers` : ''}`;
}

/**
 * The evidence of a failed check, one labelled line each: expected, got, response, reproduce.
 *
 * @example
 * evidenceLines(check); // [['expected', 'status SUCCEEDED'], ['got', 'status "COMPLETED"'], …]
 */
export function evidenceLines(check: CheckResult): Array<[string, string]> {
  const example = check.example;
  if (!example) return [];
  const lines: Array<[string, string]> = [
    ['expected', example.expected],
    ['got', `${example.actual} (${failureCount(check)})`],
  ];
  const exchange = example.exchange;
  if (exchange) {
    const requestId = exchange.headers['request-id'];
    lines.push([
      'response',
      `${exchange.status}${exchange.code ? ` ${exchange.code}` : ''}${requestId ? ` Request-Id ${requestId}` : ''} to ${exchange.method} ${new URL(exchange.url).pathname}: ${exchange.bodyExcerpt.replace(/\s+/g, ' ').slice(0, 200)}`,
    ]);
    lines.push(['reproduce', curlCommand(exchange)]);
  }
  return lines;
}

/**
 * Groups items by a key, keeping the order of first appearance.
 *
 * @example
 * groupBy(skipped, (check) => check.skipReason ?? ''); // Map { 'needs …' => [ … ] }
 */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name) ?? [];
    group.push(item);
    groups.set(name, group);
  }
  return groups;
}

/** A failed check and the same check failing in other operations: one entry, one example. */
export interface FailureGroup {
  /** The first failure, standing for the group. */
  check: CheckResult;
  /** Every failed (operation, check) of the group. */
  members: CheckResult[];
}

/**
 * Groups failed checks by id, so a broken field that fails in every operation that returns it is one entry.
 *
 * @example
 * failureGroups(report.checks).map((group) => group.check.id); // ['schema.Payment.created_at', …]
 */
export function failureGroups(checks: readonly CheckResult[]): FailureGroup[] {
  return [
    ...groupBy(
      checks.filter((check) => check.outcome === 'failed'),
      (check) => check.id,
    ).values(),
  ].map((members) => ({ check: members[0] as CheckResult, members }));
}

/**
 * Where a group failed.
 *
 * @example
 * groupOperations(group); // 'createPayment (3 of 5 runs), listPayments (2 of 2 runs)'
 */
export function groupOperations(group: FailureGroup): string {
  return group.members.map((member) => `${member.operation} (${failureCount(member)})`).join(', ');
}

/**
 * How many checks a list of failure groups holds, and how many results (one check on one
 * operation, the unit of the report's summary and verdict): both named, so a heading's count and
 * the summary's never read as the same unit.
 *
 * @example
 * failedCountsLabel(groups); // '4 checks, 7 check × operation results'
 */
export function failedCountsLabel(groups: readonly FailureGroup[]): string {
  const results = groups.reduce((sum, group) => sum + group.members.length, 0);
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return `${plural(groups.length, 'check')}, ${results} check × operation result${results === 1 ? '' : 's'}`;
}
