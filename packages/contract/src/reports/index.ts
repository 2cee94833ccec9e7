// The report formats by name: text, junit, markdown, json, github, sarif.
import type { ContractReport } from '../report.js';
import { formatGithub } from './github.js';
import { formatJson } from './json.js';
import { formatJunit } from './junit.js';
import { formatMarkdown } from './markdown.js';
import { formatSarif } from './sarif.js';
import { formatText } from './text.js';

/** The formats `--format` accepts. */
export type ReportFormat = 'text' | 'junit' | 'markdown' | 'json' | 'github' | 'sarif';

/** Each format's renderer. */
export const formatters: Record<ReportFormat, (report: ContractReport) => string> = {
  text: formatText,
  junit: formatJunit,
  markdown: formatMarkdown,
  json: formatJson,
  github: formatGithub,
  sarif: formatSarif,
};

/** The formats, in the order the help lists them. */
export const REPORT_FORMATS = Object.keys(formatters) as ReportFormat[];

/**
 * The most each report may weigh, in bytes, whatever the target answers. Markdown: GitHub's job
 * summary limit (the renderer keeps under it). The others hold every check with its target text
 * capped (see `cleanTargetText`); past the bound, the evidence (each failure's exchange) is left
 * out, then the passed and skipped checks.
 */
export const REPORT_LIMITS: Record<ReportFormat, number> = {
  markdown: 1024 * 1024,
  text: 8 * 1024 * 1024,
  github: 8 * 1024 * 1024,
  junit: 8 * 1024 * 1024,
  json: 8 * 1024 * 1024,
  sarif: 8 * 1024 * 1024,
};

/**
 * Renders a report in a format within its bound (`REPORT_LIMITS`).
 *
 * @example
 * writeFileSync('report.xml', formatBounded('junit', report));
 */
export function formatBounded(format: ReportFormat, report: ContractReport): string {
  const limit = REPORT_LIMITS[format];
  const fits = (text: string) => Buffer.byteLength(text) <= limit;
  const full = formatters[format](report);
  if (fits(full)) return full;
  const note = `; the report was over ${limit / (1024 * 1024)} MiB, so evidence was left out`;
  const lean: ContractReport = {
    ...report,
    message: `${report.message}${note}`,
    checks: report.checks.map((check) =>
      check.example
        ? { ...check, example: { expected: check.example.expected, actual: check.example.actual } }
        : check,
    ),
  };
  const leaner = formatters[format](lean);
  if (fits(leaner)) return leaner;
  const failedOnly = formatters[format]({
    ...lean,
    message: `${report.message}; the report was over ${limit / (1024 * 1024)} MiB: only failed checks are listed, without evidence`,
    checks: lean.checks.filter((check) => check.outcome === 'failed').slice(0, 1000),
  });
  if (fits(failedOnly)) return failedOnly;
  return formatters[format]({
    ...lean,
    message: `${report.message}; the report was over ${limit / (1024 * 1024)} MiB: see the counts`,
    checks: [],
  });
}
