// The comparison's reports: text and Markdown list each difference once, with the steps it showed in, its provenance and what to change; JSON has it all.
import { describeProvenance } from '../spec/elements.js';
import { cleanTargetText } from '../untrusted-text.js';
import type { Comparison, Difference, Occurrence } from './compare.js';

/** Steps a text or Markdown entry names; the JSON report lists up to `MAX_STEPS_LISTED`. */
const STEPS_SHOWN = 8;

/** A Markdown code span around any text: a fence longer than its longest run of backticks, so nothing in it renders. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${text} ${fence}`;
}

function where(occurrence: Occurrence): string {
  return `${occurrence.scenario} #${occurrence.step + 1} ${occurrence.label}`;
}

function heading(difference: Difference, markdown: boolean): string {
  const quote = (text: string) => (markdown ? codeSpan(text) : text);
  const field = difference.field ? ` ${quote(difference.field)}` : '';
  const value = difference.element.value ? ` = ${quote(difference.element.value)}` : '';
  return `${difference.aspect}${field}${value}: provider ${quote(difference.live)}, mock ${quote(difference.against)}`;
}

function stepsLine(difference: Difference, markdown: boolean): string {
  const named = difference.steps.slice(0, STEPS_SHOWN).map((occurrence) => {
    const other =
      occurrence.live !== difference.live || occurrence.against !== difference.against
        ? ` (provider ${occurrence.live}, mock ${occurrence.against})`
        : '';
    const field =
      occurrence.field !== undefined && occurrence.field !== difference.field
        ? ` ${occurrence.field}`
        : '';
    const text = `${where(occurrence)}${field}${other}`;
    return markdown ? codeSpan(text) : text;
  });
  const more = difference.occurrences - named.length;
  return `in ${difference.occurrences} step${difference.occurrences === 1 ? '' : 's'}: ${named.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}

/**
 * Renders a comparison as text, Markdown or JSON.
 *
 * @example
 * process.stdout.write(formatComparison(comparison, 'text'));
 */
export function formatComparison(
  comparison: Comparison,
  format: 'text' | 'markdown' | 'json',
): string {
  if (format === 'json') {
    return `${JSON.stringify({ ...comparison, live: comparison.live.summary, against: comparison.against.summary }, null, 2)}\n`;
  }
  const markdown = format === 'markdown';
  const target = (text: string) => (markdown ? codeSpan(text) : text);
  const lines = [
    `${markdown ? '## Compare:' : 'compare:'} ${target(comparison.live.target.baseUrl)} (provider) vs ${target(comparison.against.target.baseUrl)} (mock)`,
    '',
  ];
  for (const kind of ['documented', 'inferred'] as const) {
    const differences = comparison.differences.filter(
      (difference) => difference.element.provenance.kind === kind,
    );
    lines.push(
      markdown
        ? `### ${kind} (${differences.length})`
        : `Differences on ${kind} elements (${differences.length}):`,
    );
    for (const difference of differences) {
      const element = `${difference.element.file ? `${difference.element.file}:${difference.element.line} ` : ''}${difference.element.pointer}`;
      lines.push(
        markdown ? `- ${heading(difference, true)}` : `  ≠ ${heading(difference, false)}`,
        `      ${stepsLine(difference, markdown)}`,
        `      element ${markdown ? codeSpan(element) : element}; ${describeProvenance(difference.element.provenance)}`,
        `      change  ${difference.change}: ${difference.reason}`,
      );
    }
    lines.push('');
  }
  if (comparison.leftOut > 0)
    lines.push(
      `${comparison.leftOut} more difference(s) past the first ${comparison.differences.length} elements are not listed.`,
      '',
    );
  if (comparison.oneSided.length > 0)
    lines.push(
      `Run on one side only (skipped on the other): ${comparison.oneSided.join(', ')}`,
      '',
    );
  lines.push(
    `Checks: provider ${comparison.live.summary.failedDocumented} documented / ${comparison.live.summary.failedInferred} inferred failed; mock ${comparison.against.summary.failedDocumented} / ${comparison.against.summary.failedInferred}`,
    cleanTargetText(comparison.message, 1000),
    '',
  );
  return lines.join('\n');
}
