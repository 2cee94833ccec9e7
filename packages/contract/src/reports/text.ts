// The human report: documented failures first, then inferred ones, skipped checks by reason, and the one-line verdict.
import type { ContractReport } from '../report.js';
import {
  baselineLine,
  elementLine,
  evidenceLines,
  type FailureGroup,
  failedCountsLabel,
  failureGroups,
  groupBy,
  groupOperations,
  provenanceLine,
} from './shared.js';

function failureBlock({ check, members }: FailureGroup): string[] {
  return [
    `  ✗ ${check.id}: ${check.title}`,
    `      failed in  ${groupOperations({ check, members })}`,
    `      element    ${elementLine(check)}`,
    `      provenance ${provenanceLine(check)}`,
    ...(check.baseline ? [`      baseline   ${baselineLine(check)}`] : []),
    ...evidenceLines(check).map(([label, value]) => `      ${label.padEnd(10)} ${value}`),
  ];
}

/**
 * Renders a report as text for a terminal or a CI log.
 *
 * @example
 * process.stdout.write(formatText(report));
 */
export function formatText(report: ContractReport): string {
  const all = failureGroups(report.checks);
  const known = all.filter((group) => group.check.baseline?.state === 'known');
  const groups = all.filter((group) => group.check.baseline?.state !== 'known');
  const documented = groups.filter((group) => group.check.element.provenance.kind === 'documented');
  const inferred = groups.filter((group) => group.check.element.provenance.kind === 'inferred');
  const skipped = report.checks.filter((check) => check.outcome === 'skipped');
  const lines = [
    `payment-service-contract ${report.tool.version}: ${report.target.baseUrl} against ${report.spec.title} ${report.spec.version}`,
    '',
  ];
  lines.push(
    documented.length === 0
      ? 'Documented checks: none failed.'
      : `Documented checks failed (${failedCountsLabel(documented)}): the provider's own document is contradicted`,
  );
  for (const group of documented) lines.push(...failureBlock(group));
  lines.push('');
  lines.push(
    inferred.length === 0
      ? 'Inferred checks: none failed.'
      : `Inferred checks failed (${failedCountsLabel(inferred)}): our model of what the provider leaves "not shown" needs correcting`,
  );
  for (const group of inferred) lines.push(...failureBlock(group));
  if (known.length > 0) {
    lines.push(
      '',
      `Known failures (${failedCountsLabel(known)}), accepted by ${report.baseline?.file}:`,
    );
    for (const group of known) lines.push(...failureBlock(group));
  }
  for (const fixed of report.baseline?.fixed ?? []) {
    lines.push(
      `  ✓ ${fixed.check}${fixed.operation ? ` (${fixed.operation})` : ''} passes: fixed, remove it from ${report.baseline?.file}`,
    );
  }
  if (skipped.length > 0) {
    lines.push('', `Skipped (${skipped.length}):`);
    for (const [reason, checks] of groupBy(skipped, (check) => check.skipReason ?? '')) {
      lines.push(`  ${checks.length} check${checks.length === 1 ? '' : 's'}: ${reason}`);
    }
  }
  for (const error of report.errors)
    lines.push('', `Error in scenario ${error.scenario}: ${error.message.split('\n')[0]}`);
  lines.push('', ...closingLines(report));
  return lines.join('\n');
}

/** How many lines `formatText` ends with: the counts, the verdict and a blank line. */
export const CLOSING_LINE_COUNT = 3;

/**
 * The lines a text report ends with: the counts, the verdict, and a blank line.
 *
 * @example
 * closingLines(report); // ['12 check × operation results: 12 passed, 0 documented and 0 inferred failed, 0 skipped; …', 'PASSED …', '']
 */
export function closingLines(report: ContractReport): string[] {
  const { summary } = report;
  return [
    `${summary.checks} check × operation results: ${summary.passed} passed, ${summary.failedDocumented} documented and ${summary.failedInferred} inferred failed, ${summary.known > 0 ? `${summary.known} known, ` : ''}${summary.skipped} skipped; ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s${report.seed === null ? '' : `; seed ${report.seed}`}`,
    report.message,
    '',
  ];
}
