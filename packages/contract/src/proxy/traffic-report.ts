// The report of a team's traffic (proxy or replay): a check report whose checks each carry their cause, the exit code under --fail-on, and every format with the app's own mistakes apart from the provider's drift.
import { type BaselineFile, baselineNotes, updatedBaseline, utcDate } from '../gate/baseline.js';
import { isEmptySelection } from '../gate/filters.js';
import { applyGate, type GateOptions } from '../gate/gate.js';
import { contractVersion } from '../generated/version.js';
import { type ContractReport, exitCodeFor, type FailOn, summarize } from '../report.js';
import { formatBounded, REPORT_LIMITS, type ReportFormat } from '../reports/index.js';
import { codeSpan } from '../reports/markdown.js';
import {
  elementLine,
  evidenceLines,
  type FailureGroup,
  failureGroups,
  groupOperations,
  provenanceLine,
} from '../reports/shared.js';
import { CLOSING_LINE_COUNT, closingLines } from '../reports/text.js';
import type { SpecDocument } from '../spec/spec-index.js';
import { cleanTargetText } from '../untrusted-text.js';
import type { TrafficCheckResult, TrafficNotes } from './traffic-checker.js';

/** A traffic report: a check report (same formats, same exit policy) whose checks carry their cause, and the traffic's counts. */
export interface TrafficReport extends ContractReport {
  checks: TrafficCheckResult[];
  traffic: TrafficNotes & {
    /** `proxy` or `replay`. */
    mode: 'proxy' | 'replay';
    /** Failed checks by cause. */
    failedRequests: number;
    failedAnswers: number;
  };
}

/** The gate a traffic report is judged under (`check`'s: selection and baseline; today is the report's date). */
export interface TrafficGate extends Omit<GateOptions, 'today'> {
  /**
   * `--update-baseline`: called with the baseline the selected checks' failures make, which the
   * report is then judged against (the caller writes it).
   */
  updateBaseline?: (next: BaselineFile) => void;
}

/** What a traffic report is built from. */
export interface TrafficReportInput {
  mode: 'proxy' | 'replay';
  /** The proxy's target, or the recording replayed. */
  target: string;
  failOn: FailOn;
  checks: TrafficCheckResult[];
  notes: TrafficNotes;
  /** The spec checked against (its `info`). */
  spec: SpecDocument;
  startedAt: number;
  now: number;
  /** Unexpected errors of the checker (a bug here): exit 4 unless a counted check failed. */
  errors?: ContractReport['errors'];
  /** Only the selected checks are reported; the baseline's known failures do not count. */
  gate?: TrafficGate;
}

/** The checks under the gate: selected, the baseline (updated first with `updateBaseline`) applied. */
function gated(checks: TrafficCheckResult[], gate: TrafficGate | undefined, now: number) {
  if (!gate) return { checks };
  const today = utcDate(now);
  let { baseline } = gate;
  if (gate.updateBaseline) {
    const selected = applyGate(checks, { ...gate, baseline: undefined, today }).checks;
    const next = updatedBaseline(selected, baseline ?? { file: 'baseline', entries: [] }, today);
    gate.updateBaseline(next);
    baseline = { file: baseline?.file ?? 'baseline', entries: next.known };
  }
  return applyGate(checks, {
    ...(gate.selection ? { selection: gate.selection } : {}),
    ...(baseline ? { baseline } : {}),
    today,
  });
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** `2 documented and 1 inferred check` of a list of failed checks. */
function failedCounts(checks: TrafficCheckResult[]): string {
  const documented = checks.filter((check) => check.element.provenance.kind === 'documented');
  return `${documented.length} documented and ${plural(checks.length - documented.length, 'inferred check')}`;
}

/**
 * Builds the report of a proxy's or a replay's traffic: the verdict and exit code follow
 * `--fail-on` over every failed check (the app's and the target's alike, each by its element's
 * provenance), exactly as `check`'s do.
 *
 * @example
 * const report = trafficReport({ mode: 'replay', target: 'traffic.har', failOn: 'documented', checks: checker.results(), notes: checker.notes, spec, startedAt, now: Date.now() });
 * process.exitCode = report.exitCode;
 */
export function trafficReport(input: TrafficReportInput): TrafficReport {
  const errors = input.errors ?? [];
  const { checks, baseline } = gated(input.checks, input.gate, input.now);
  const summary = summarize(checks);
  const counted = exitCodeFor(summary, input.failOn, errors.length);
  const verdict = counted === 1 ? 'failed' : counted === 4 ? 'no-verdict' : 'passed';
  // Known failures (the baseline's) are reported, not counted.
  const failed = checks.filter(
    (check) => check.outcome === 'failed' && check.baseline?.state !== 'known',
  );
  const fromRequests = failed.filter((check) => check.cause === 'request');
  const fromAnswers = failed.filter((check) => check.cause === 'answer');
  const answersLine =
    fromAnswers.length === 0
      ? "the target's answers honour the spec"
      : `the target's answers drift: ${failedCounts(fromAnswers)} failed`;
  const requestsLine =
    fromRequests.length === 0
      ? 'your requests honour the spec'
      : `your requests: ${failedCounts(fromRequests)} failed (cause: your request, not the provider)`;
  const head = verdict === 'failed' ? 'FAILED' : verdict === 'no-verdict' ? 'NO VERDICT' : 'PASSED';
  const counting =
    verdict === 'passed' && failed.length > 0
      ? `; not failing under --fail-on ${input.failOn}`
      : '';
  const noVerdict = verdict === 'no-verdict' ? `; ${errors.length} internal error(s)` : '';
  const notes = baseline ? baselineNotes(baseline).map((note) => `; ${note}`) : [];
  const info = (input.spec as { info?: { title?: unknown; version?: unknown } }).info;
  return {
    schemaVersion: 1,
    tool: { name: '@payment-service/contract', version: contractVersion },
    spec: {
      title: cleanTargetText(String(info?.title ?? 'unknown spec'), 200),
      version: cleanTargetText(String(info?.version ?? ''), 100),
    },
    target: { baseUrl: input.target, sandboxControls: false, webhooks: false },
    policy: { failOn: input.failOn, maxRequests: 0, rate: null },
    seed: null,
    ...(input.gate?.selection && !isEmptySelection(input.gate.selection)
      ? { selection: input.gate.selection }
      : {}),
    ...(baseline ? { baseline } : {}),
    startedAt: new Date(input.startedAt).toISOString(),
    durationMs: Math.max(0, input.now - input.startedAt),
    requests: input.notes.exchanges,
    verdict,
    exitCode: counted,
    message: `${head}: ${answersLine}; ${requestsLine}${counting}${noVerdict}${notes.join('')} (${plural(input.notes.exchanges, 'exchange')}, ${summary.passed} checks passed)`,
    summary,
    checks,
    errors,
    traffic: {
      ...input.notes,
      mode: input.mode,
      failedRequests: fromRequests.length,
      failedAnswers: fromAnswers.length,
    },
  };
}

function requestBlock(group: FailureGroup): string[] {
  const { check } = group;
  return [
    `  ✗ ${check.id}: ${check.title}`,
    `      failed in  ${groupOperations(group)}`,
    `      element    ${elementLine(check)}`,
    `      provenance ${provenanceLine(check)}`,
    ...evidenceLines(check).map(([label, value]) => `      ${label.padEnd(10)} ${value}`),
  ];
}

/** The traffic's counts and what was not checked, one line each. */
function noteLines(report: TrafficReport): string[] {
  const { traffic } = report;
  const lines = [
    `${plural(traffic.exchanges, 'exchange')}; ${plural(traffic.undeclaredRoutes, 'request')} to a route the spec does not declare; ${plural(traffic.liveKeysRefused, 'request')} refused for an sk_live_ key (never forwarded)`,
  ];
  for (const [reason, count] of Object.entries(traffic.notChecked))
    lines.push(`${cleanTargetText(reason, 200)}: ${count}`);
  return lines;
}

/** The app's own failures that count: a baseline's known ones are listed apart (`knownRequestLine`). */
function requestGroups(report: TrafficReport) {
  return failureGroups(
    report.checks.filter((check) => check.cause === 'request' && check.baseline?.state !== 'known'),
  );
}

/** The app's own failures the baseline accepts, in one line; undefined without any. */
function knownRequestLine(report: TrafficReport): string | undefined {
  const known = failureGroups(
    report.checks.filter((check) => check.cause === 'request' && check.baseline?.state === 'known'),
  );
  if (known.length === 0) return undefined;
  return `Your requests' known failures (${known.length}), accepted by ${cleanTargetText(report.baseline?.file ?? 'the baseline', 200)}: ${known.map((group) => group.check.id).join(', ')}`;
}

function answersOnly(report: TrafficReport): ContractReport {
  const checks = report.checks.filter((check) => check.cause === 'answer');
  return { ...report, checks, summary: summarize(checks) };
}

function textReport(report: TrafficReport): string {
  const groups = requestGroups(report);
  const lines = [
    '',
    groups.length === 0
      ? 'Your requests: none broke the contract.'
      : `Your requests broke the contract (${groups.length}): cause: your request, the app sent what the spec does not allow (not the provider's drift)`,
  ];
  for (const group of groups.slice(0, 200)) lines.push(...requestBlock(group));
  if (groups.length > 200) lines.push(`  … ${groups.length - 200} more: see the JSON report`);
  const known = knownRequestLine(report);
  if (known !== undefined) lines.push('', known);
  lines.push(
    '',
    'Traffic:',
    ...noteLines(report).map((line) => `  ${line}`),
    '',
    // One closing for the whole run: counts and verdict over both causes.
    ...closingLines(report),
  );
  return lines.join('\n');
}

function markdownReport(report: TrafficReport, budget: number): string {
  const groups = requestGroups(report);
  const lines = [
    '',
    groups.length === 0
      ? '### Your requests: none broke the contract'
      : `### Your requests broke the contract (${groups.length}): cause: your request, not the provider's drift`,
    '',
  ];
  let omitted = 0;
  let used = Buffer.byteLength(lines.join('\n')) + 4096;
  for (const group of groups) {
    const entry = [
      `- ${codeSpan(group.check.id)} (${codeSpan(groupOperations(group))}): ${codeSpan(group.check.title)}`,
      `  - element ${codeSpan(elementLine(group.check))}, ${codeSpan(provenanceLine(group.check))}`,
      ...evidenceLines(group.check)
        .filter(([label]) => label !== 'reproduce')
        .map(([label, value]) => `  - ${label} ${codeSpan(value)}`),
    ];
    const size = Buffer.byteLength(entry.join('\n')) + 1;
    if (used + size > budget) {
      omitted += 1;
      continue;
    }
    used += size;
    lines.push(...entry);
  }
  if (omitted > 0) lines.push(`- ${omitted} more not shown (1 MiB summary): see the JSON report`);
  const known = knownRequestLine(report);
  if (known !== undefined) lines.push('', codeSpan(known));
  lines.push('', '### Traffic', '', ...noteLines(report).map((line) => `- ${codeSpan(line)}`), '');
  return lines.join('\n');
}

function githubReport(report: TrafficReport): string {
  const escapeData = (text: string) =>
    text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const lines: string[] = [];
  for (const group of requestGroups(report).slice(0, 500)) {
    const { check } = group;
    const kind = check.element.provenance.kind;
    const counted =
      exitCodeFor(
        {
          failedDocumented: kind === 'documented' ? 1 : 0,
          failedInferred: kind === 'inferred' ? 1 : 0,
        },
        report.policy.failOn,
      ) === 1;
    const title = `[your request] [${kind}] ${check.id}`.replace(/[:,]/g, ' ');
    const message = [
      `${check.title} (${groupOperations(group)})`,
      `provenance: ${provenanceLine(check)}`,
      ...evidenceLines(check).map(([label, value]) => `${label}: ${value}`),
    ].join('\n');
    lines.push(
      `::${counted ? 'error' : 'warning'} title=${escapeData(title)}::${escapeData(message)}`,
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/**
 * Renders a traffic report in one of `check`'s formats, within the format's bound. JSON, JUnit and
 * SARIF hold every check (each JSON check and SARIF result with its `cause`); text, Markdown and GitHub show the
 * target's drift as `check` does, then the app's own mistakes apart, under "Your requests".
 *
 * @example
 * writeFileSync('proxy-report.xml', formatTrafficReport('junit', report));
 */
export function formatTrafficReport(format: ReportFormat, report: TrafficReport): string {
  if (format === 'json' || format === 'junit' || format === 'sarif')
    return formatBounded(format, report);
  const answers = formatBounded(format, answersOnly(report));
  if (format === 'github') return `${githubReport(report)}${answers}`;
  if (format === 'text') {
    // The answers' part closes with its own counts and verdict: the whole run's close the report.
    const lines = answers.split('\n');
    return `${lines.slice(0, -CLOSING_LINE_COUNT).join('\n')}\n${textReport(report)}`;
  }
  const budget = REPORT_LIMITS.markdown - Buffer.byteLength(answers);
  return `${answers}${markdownReport(report, budget)}`;
}
