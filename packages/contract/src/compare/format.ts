// The comparison's reports: text and Markdown list each difference with its provenance and what to change; JSON has it all.
import { describeProvenance } from '../spec/elements.js';
import type { Comparison, Difference } from './compare.js';

function line(difference: Difference): string {
  const where = `${difference.scenario} #${difference.step + 1} ${difference.label}`;
  const field = difference.field ? ` ${difference.field}` : '';
  return `${where}: ${difference.aspect}${field}: provider ${difference.live}, mock ${difference.against}`;
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
  const lines = [
    markdown
      ? `## Compare: ${comparison.live.target.baseUrl} (provider) vs ${comparison.against.target.baseUrl} (mock)`
      : `compare: ${comparison.live.target.baseUrl} (provider) vs ${comparison.against.target.baseUrl} (mock)`,
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
      lines.push(
        markdown ? `- ${line(difference)}` : `  ≠ ${line(difference)}`,
        `      element ${difference.element.file ? `${difference.element.file}:${difference.element.line} ` : ''}${difference.element.pointer}; ${describeProvenance(difference.element.provenance)}`,
        `      change  ${difference.change}: ${difference.reason}`,
      );
    }
    lines.push('');
  }
  if (comparison.oneSided.length > 0)
    lines.push(
      `Run on one side only (skipped on the other): ${comparison.oneSided.join(', ')}`,
      '',
    );
  lines.push(
    `Checks: provider ${comparison.live.summary.failedDocumented} documented / ${comparison.live.summary.failedInferred} inferred failed; mock ${comparison.against.summary.failedDocumented} / ${comparison.against.summary.failedInferred}`,
    comparison.message,
    '',
  );
  return lines.join('\n');
}
