// The report formats by name: text, junit, markdown, json, github.
import type { ContractReport } from '../report.js';
import { formatGithub } from './github.js';
import { formatJson } from './json.js';
import { formatJunit } from './junit.js';
import { formatMarkdown } from './markdown.js';
import { formatText } from './text.js';

/** The formats `--format` accepts. */
export type ReportFormat = 'text' | 'junit' | 'markdown' | 'json' | 'github';

/** Each format's renderer. */
export const formatters: Record<ReportFormat, (report: ContractReport) => string> = {
  text: formatText,
  junit: formatJunit,
  markdown: formatMarkdown,
  json: formatJson,
  github: formatGithub,
};

/** The formats, in the order the help lists them. */
export const REPORT_FORMATS = Object.keys(formatters) as ReportFormat[];
