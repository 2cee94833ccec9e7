// Turns what each proxy said into table cells: Prism's log split per exchange, our report's snapshots diffed per exchange, a Markdown table.
import type { Answer } from './traffic.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC.
const ANSI = /\u001b\[[0-9;]*m/g;
const TIMESTAMP = /^\[[^\]]*\]\s*›\s*/;

/**
 * Prism's log lines, without colours and timestamps, split per exchange: each exchange starts
 * at its `Request received` line (the exchanges are sent one after another). Start-up lines
 * before the first exchange are dropped.
 *
 * @example
 * prismSegments('[7:56 PM] › [CLI] ▶ start Prism is listening\n[7:56 PM] › [HTTP SERVER] get /v1/x ℹ info Request received\n');
 * // [['[HTTP SERVER] get /v1/x ℹ info Request received']]
 */
export function prismSegments(log: string): string[][] {
  const segments: string[][] = [];
  for (const raw of log.replace(ANSI, '').split('\n')) {
    const line = raw.replace(TIMESTAMP, '').replace(/\s+/g, ' ').trim();
    if (line === '') continue;
    if (/Request received$/.test(line)) segments.push([]);
    segments.at(-1)?.push(line);
  }
  return segments;
}

/** The messages of an `sl-violations` header or of a Prism problem's `validation`. */
function violationMessages(text: string | undefined, fromBody: boolean): string[] {
  if (text === undefined) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    const list = fromBody ? (parsed as { validation?: unknown }).validation : parsed;
    if (!Array.isArray(list)) return [];
    return list.map(
      (item: { message?: string; severity?: string }) =>
        `${item.severity ?? '?'}: ${item.message ?? JSON.stringify(item)}`,
    );
  } catch {
    return [];
  }
}

/**
 * What Prism said of one exchange: the status it returned, its `sl-violations` header, the
 * violations in its own problem body, and its log lines that are not plain info.
 *
 * @example
 * prismCell({ status: 201, body: '{}' }, ['[HTTP SERVER] post /v1/payments ℹ info Request received']);
 * // 'HTTP 201; no violation header; log: info only'
 */
export function prismCell(answer: Answer, lines: readonly string[]): string {
  const parts = [`HTTP ${answer.status}`];
  const header = violationMessages(answer.violations, false);
  parts.push(header.length > 0 ? `sl-violations: ${header.join(' / ')}` : 'no violation header');
  const body = violationMessages(answer.body, true);
  const prismProblem = /stoplight\.io\/prism\/errors#(\w+)/.exec(answer.body)?.[1];
  if (prismProblem) parts.push(`Prism's own problem ${prismProblem}: ${body.join(' / ')}`);
  const notable = lines.filter((line) => !/ ℹ info /.test(line));
  parts.push(
    notable.length > 0
      ? `log: ${notable.map((line) => line.replace(/^\[[^\]]*\]\s*/, '')).join(' / ')}`
      : 'log: info only',
  );
  return parts.join('; ');
}

/** One check of our JSON report, as much as the table needs. */
export interface ReportedCheck {
  id: string;
  /** A schema check's id repeats across operations: the id and the operation name one check. */
  operation: string;
  failures: number;
  cause?: 'request' | 'answer';
  element?: { pointer?: string; provenance?: { kind?: string; section?: string } };
}

/**
 * The checks that failed (again) between two snapshots of our report: the failures one
 * exchange added, as `id [provenance §section, cause]`.
 *
 * @example
 * newFailures([], [{ id: 'request.schema.CreatePaymentRequest.amount', operation: 'createPayment', failures: 1, cause: 'request', element: { provenance: { kind: 'documented', section: '4.1' } } }]);
 * // ['createPayment: request.schema.CreatePaymentRequest.amount [documented §4.1, the app\'s request]']
 */
export function newFailures(
  before: readonly ReportedCheck[],
  after: readonly ReportedCheck[],
): string[] {
  const key = (check: ReportedCheck) => `${check.operation} ${check.id}`;
  const earlier = new Map(before.map((check) => [key(check), check.failures]));
  return after
    .filter((check) => check.failures > (earlier.get(key(check)) ?? 0))
    .map((check) => {
      const provenance = check.element?.provenance;
      const where = provenance?.section ? ` §${provenance.section}` : '';
      const cause =
        check.cause === 'request'
          ? "the app's request"
          : check.cause === 'answer'
            ? "the target's answer"
            : 'no cause';
      return `${check.operation}: ${check.id} [${provenance?.kind ?? '?'}${where}, ${cause}]`;
    });
}

/**
 * A Markdown table; pipes and newlines inside cells are escaped.
 *
 * @example
 * markdownTable(['a', 'b'], [['1', 'x|y']]); // '| a | b |\n| --- | --- |\n| 1 | x\\|y |'
 */
export function markdownTable(header: readonly string[], rows: readonly string[][]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, '<br>');
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
