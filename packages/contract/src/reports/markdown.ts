// The Markdown report, fit for a CI job summary: the verdict, a table of counts, each failure with its evidence, skips by reason; the target's text only in code spans, and at most 1 MiB.
import type { ContractReport } from '../report.js';
import { cleanTargetText } from '../untrusted-text.js';
import {
  elementLine,
  evidenceLines,
  type FailureGroup,
  failedCountsLabel,
  failureGroups,
  groupBy,
  groupOperations,
  provenanceLine,
} from './shared.js';

/** GitHub refuses a job summary over 1 MiB: the report stays under it, whatever the target answers. */
export const MAX_MARKDOWN_BYTES = 1024 * 1024;

/**
 * A text as a Markdown code span, where nothing renders (no link, image, mention or HTML): the
 * fence is one backtick longer than the longest run inside, and the text stays on one line.
 *
 * @example
 * codeSpan('a `b` ![x](http://evil)'); // '`` a `b` ![x](http://evil) ``'
 */
export function codeSpan(text: string): string {
  const line = cleanTargetText(text, 4000);
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${line} ${fence}`;
}

/** Escapes a text for a Markdown table cell or inline text. */
function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/\n/g, ' ');
}

/** A code fence longer than any run of backticks in the text. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...(text.match(/`{3,}/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

function failure(group: FailureGroup): string[] {
  const { check } = group;
  const evidence = evidenceLines(check);
  const reproduce = evidence.find(([label]) => label === 'reproduce')?.[1];
  return [
    `<details><summary><code>${cell(check.id)}</code>: ${cell(check.title)}</summary>`,
    '',
    `- **failed in**: ${cell(groupOperations(group))}`,
    `- **element**: ${codeSpan(elementLine(check))}`,
    `- **provenance**: ${cell(provenanceLine(check))}`,
    ...evidence
      .filter(([label]) => label !== 'reproduce')
      .map(([label, value]) => `- **${label}**: ${codeSpan(value)}`),
    ...(reproduce ? ['', `${fenceFor(reproduce)}sh`, reproduce, fenceFor(reproduce)] : []),
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
    `> ${codeSpan(report.message)}`,
    '',
    `Target ${codeSpan(report.target.baseUrl)} · spec ${cell(report.spec.title)} ${report.spec.version} · ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s · \`--fail-on ${report.policy.failOn}\`${report.seed === null ? '' : ` · \`--seed ${report.seed}\``}${report.summary.known > 0 ? ` · ${report.summary.known} known failure(s) accepted by ${codeSpan(report.baseline?.file ?? '')}` : ''}`,
    '',
    '| check × operation results | documented | inferred |',
    '|---|---|---|',
    `| failed | ${summary.failedDocumented} | ${summary.failedInferred} |`,
    `| passed | ${report.checks.filter((check) => check.outcome === 'passed' && check.element.provenance.kind === 'documented').length} | ${report.checks.filter((check) => check.outcome === 'passed' && check.element.provenance.kind === 'inferred').length} |`,
    `| skipped | ${report.checks.filter((check) => check.outcome === 'skipped' && check.element.provenance.kind === 'documented').length} | ${report.checks.filter((check) => check.outcome === 'skipped' && check.element.provenance.kind === 'inferred').length} |`,
    '',
  ];
  // The tail (skips and errors) is written first into its own budget, then failures fill the rest.
  const tail: string[] = [];
  const skipped = report.checks.filter((check) => check.outcome === 'skipped');
  if (skipped.length > 0) {
    tail.push('### Skipped', '');
    for (const [reason, checks] of groupBy(skipped, (check) => check.skipReason ?? '')) {
      tail.push(`- ${checks.length} check${checks.length === 1 ? '' : 's'}: ${codeSpan(reason)}`);
    }
    tail.push('');
  }
  for (const error of report.errors.slice(0, 20))
    tail.push(
      `- **error** in ${codeSpan(error.scenario)}: ${codeSpan(error.message.split('\n')[0] ?? '')}`,
    );
  const bytes = (items: string[]) =>
    items.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
  let budget = MAX_MARKDOWN_BYTES - bytes(lines) - bytes(tail) - 1024;
  let omitted = 0;
  // Known failures (the baseline's) under their own heading: the counts above leave them out.
  const isKnown = (group: FailureGroup) => group.check.baseline?.state === 'known';
  for (const kind of ['documented', 'inferred', 'known'] as const) {
    const checks = groups.filter((group) =>
      kind === 'known'
        ? isKnown(group)
        : !isKnown(group) && group.check.element.provenance.kind === kind,
    );
    if (checks.length === 0) continue;
    const heading = [
      kind === 'documented'
        ? `### Documented checks failed (${failedCountsLabel(checks)}): the provider's document is contradicted`
        : kind === 'inferred'
          ? `### Inferred checks failed (${failedCountsLabel(checks)}): our model of what the provider leaves unstated needs correcting`
          : `### Known failures (${failedCountsLabel(checks)}), accepted by ${codeSpan(report.baseline?.file ?? '')}`,
      '',
    ];
    lines.push(...heading);
    budget -= bytes(heading);
    for (const group of checks) {
      const entry = failure(group);
      const size = bytes(entry);
      if (size > budget) {
        omitted += 1;
        continue;
      }
      budget -= size;
      lines.push(...entry);
    }
  }
  if (omitted > 0)
    lines.push(
      `${omitted} more failed check${omitted === 1 ? '' : 's'} not shown here (a job summary holds at most 1 MiB): see the JUnit or JSON report.`,
      '',
    );
  lines.push(...tail);
  return `${lines.join('\n')}\n`;
}
