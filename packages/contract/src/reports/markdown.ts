// The Markdown report, fit for a CI job summary: the verdict, a table of counts, each failure with its evidence, skips by reason.
import type { ContractReport } from '../report.js';
import {
  elementLine,
  evidenceLines,
  type FailureGroup,
  failureGroups,
  groupBy,
  groupOperations,
  provenanceLine,
} from './shared.js';

/** Escapes a text for a Markdown table cell or inline text. */
function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/\n/g, ' ');
}

function failure(group: FailureGroup): string[] {
  const { check } = group;
  const evidence = evidenceLines(check);
  const reproduce = evidence.find(([label]) => label === 'reproduce')?.[1];
  return [
    `<details><summary><code>${cell(check.id)}</code>: ${cell(check.title)}</summary>`,
    '',
    `- **failed in**: ${cell(groupOperations(group))}`,
    `- **element**: \`${elementLine(check)}\``,
    `- **provenance**: ${cell(provenanceLine(check))}`,
    ...evidence
      .filter(([label]) => label !== 'reproduce')
      .map(([label, value]) => `- **${label}**: ${cell(value)}`),
    ...(reproduce ? ['', '```sh', reproduce, '```'] : []),
    '',
    '</details>',
    '',
  ];
}

/**
 * Renders a report as Markdown (for `$GITHUB_STEP_SUMMARY` or a merge-request comment).
 *
 * @example
 * writeFileSync(process.env.GITHUB_STEP_SUMMARY ?? 'summary.md', formatMarkdown(report));
 */
export function formatMarkdown(report: ContractReport): string {
  const { summary } = report;
  const icon = report.verdict === 'passed' ? '✅' : report.verdict === 'failed' ? '❌' : '⚠️';
  const groups = failureGroups(report.checks);
  const lines = [
    `## ${icon} Contract check: ${report.verdict}`,
    '',
    `> ${cell(report.message)}`,
    '',
    `Target \`${report.target.baseUrl}\` · spec ${cell(report.spec.title)} ${report.spec.version} · ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s · \`--fail-on ${report.policy.failOn}\``,
    '',
    '| | documented | inferred |',
    '|---|---|---|',
    `| failed | ${summary.failedDocumented} | ${summary.failedInferred} |`,
    `| passed | ${report.checks.filter((check) => check.outcome === 'passed' && check.element.provenance.kind === 'documented').length} | ${report.checks.filter((check) => check.outcome === 'passed' && check.element.provenance.kind === 'inferred').length} |`,
    `| skipped | ${report.checks.filter((check) => check.outcome === 'skipped' && check.element.provenance.kind === 'documented').length} | ${report.checks.filter((check) => check.outcome === 'skipped' && check.element.provenance.kind === 'inferred').length} |`,
    '',
  ];
  for (const kind of ['documented', 'inferred'] as const) {
    const checks = groups.filter((group) => group.check.element.provenance.kind === kind);
    if (checks.length === 0) continue;
    lines.push(
      kind === 'documented'
        ? `### Documented checks failed (${checks.length}): the provider's document is contradicted`
        : `### Inferred checks failed (${checks.length}): our model of what the provider leaves unstated needs correcting`,
      '',
    );
    for (const group of checks) lines.push(...failure(group));
  }
  const skipped = report.checks.filter((check) => check.outcome === 'skipped');
  if (skipped.length > 0) {
    lines.push('### Skipped', '');
    for (const [reason, checks] of groupBy(skipped, (check) => check.skipReason ?? '')) {
      lines.push(`- ${checks.length} check${checks.length === 1 ? '' : 's'}: ${cell(reason)}`);
    }
    lines.push('');
  }
  for (const error of report.errors)
    lines.push(`- **error** in \`${error.scenario}\`: ${cell(error.message.split('\n')[0] ?? '')}`);
  return `${lines.join('\n')}\n`;
}
