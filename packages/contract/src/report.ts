// The report of a check run: every check with its outcome and provenance, the verdict and the exit code under the policy.
import type { CheckResult } from './checks/ledger.js';
import type { BaselineOutcome } from './gate/baseline.js';
import type { CheckSelection } from './gate/filters.js';

/** Which failures fail the run: only documented ones (default), only inferred ones, either, or none. */
export type FailOn = 'documented' | 'inferred' | 'any' | 'none';

/** The policies `--fail-on` accepts. */
export const FAIL_ON_VALUES: readonly FailOn[] = ['documented', 'inferred', 'any', 'none'];

/** How a run ended. */
export type Verdict =
  /** Every check ran; no failure fails the run under the policy. */
  | 'passed'
  /** Some check failed that the policy counts (exit 1). */
  | 'failed'
  /** The target could not be reached (exit 3). */
  | 'unreachable'
  /** The target refused the key on the first request (exit 3). */
  | 'key-refused'
  /** The run reached its deadline, or too many requests in a row timed out (exit 3). */
  | 'stopped'
  /** The run's own limits stopped it (the request budget: exit 2). */
  | 'incomplete'
  /** An internal error (a bug here, or an answer no check foresaw) leaves no verdict (exit 4). */
  | 'no-verdict';

/** The report of one `check` run. Its JSON form (`--format json`) is stable: `schemaVersion` changes on any breaking change. */
export interface ContractReport {
  schemaVersion: 1;
  tool: { name: string; version: string };
  spec: { title: string; version: string };
  target: {
    baseUrl: string;
    /** Whether the target serves the mock's `/_sandbox` controls (clock, faults). */
    sandboxControls: boolean;
    /** Whether a webhook receiver took part (`--webhook-url`). */
    webhooks: boolean;
  };
  /** `rate` is requests per second, or null for no limit (the programmatic API's Infinity). */
  policy: { failOn: FailOn; maxRequests: number; rate: number | null };
  /**
   * The seed of the run's markers, keys and Idempotency-Keys: `--seed` repeats them. Null when the
   * requests were not ours (proxy, replay: the app's own traffic).
   */
  seed: number | null;
  /** The checks the run was limited to (`--operation`, `--check`, `--provenance`, `--exclude`), when it was. */
  selection?: CheckSelection;
  /** What the baseline (`--baseline`) accepted, found expired, or found fixed. */
  baseline?: BaselineOutcome;
  /** How long each scenario took, in ms, by scenario id. */
  scenarioDurations?: Record<string, number>;
  startedAt: string;
  durationMs: number;
  /** Requests sent. */
  requests: number;
  verdict: Verdict;
  exitCode: 0 | 1 | 2 | 3 | 4;
  /** The verdict in one line. */
  message: string;
  summary: {
    checks: number;
    passed: number;
    failed: number;
    skipped: number;
    /** Failed documented checks that count: not accepted by the baseline. */
    failedDocumented: number;
    /** Failed inferred checks that count: not accepted by the baseline. */
    failedInferred: number;
    /** Failed checks the baseline accepts (counted in `failed`, not in the two above). */
    known: number;
    /** How many of the `known` failures are documented checks (the rest are inferred). */
    knownDocumented: number;
  };
  /** Every check, documented failures first, then inferred failures, passes and skips. */
  checks: CheckResult[];
  /** Scenarios that stopped on an unexpected error (a bug here, or an answer no check foresaw): exit 4 unless a counted check failed. */
  errors: Array<{ scenario: string; message: string }>;
}

/**
 * The exit code a report's failures give under a policy: 1 when a failure the policy counts
 * exists; otherwise 4 ("no verdict") when a scenario stopped on an unexpected error, else 0.
 *
 * @example
 * exitCodeFor({ failedDocumented: 0, failedInferred: 2 }, 'documented'); // 0
 */
export function exitCodeFor(
  summary: { failedDocumented: number; failedInferred: number },
  failOn: FailOn,
  errors = 0,
): 0 | 1 | 4 {
  const documented = summary.failedDocumented > 0;
  const inferred = summary.failedInferred > 0;
  const counted =
    failOn === 'documented'
      ? documented
      : failOn === 'inferred'
        ? inferred
        : failOn === 'any'
          ? documented || inferred
          : false;
  if (counted) return 1;
  return errors > 0 ? 4 : 0;
}

/**
 * Summarises check results.
 *
 * @example
 * summarize(report.checks).failedDocumented; // 0
 */
export function summarize(checks: CheckResult[]): ContractReport['summary'] {
  const failed = checks.filter((check) => check.outcome === 'failed');
  const counted = failed.filter((check) => check.baseline?.state !== 'known');
  return {
    checks: checks.length,
    passed: checks.filter((check) => check.outcome === 'passed').length,
    failed: failed.length,
    skipped: checks.filter((check) => check.outcome === 'skipped').length,
    failedDocumented: counted.filter((check) => check.element.provenance.kind === 'documented')
      .length,
    failedInferred: counted.filter((check) => check.element.provenance.kind === 'inferred').length,
    known: failed.length - counted.length,
    knownDocumented: failed.filter(
      (check) =>
        check.baseline?.state === 'known' && check.element.provenance.kind === 'documented',
    ).length,
  };
}

/**
 * The one-line verdict of a run.
 *
 * @example
 * verdictLine('passed', summary, 'documented');
 * // 'PASSED: every documented fact holds; 2 inferred checks failed (our model of what the provider leaves unstated is off); not failing under --fail-on documented (40 passed, 0 skipped)'
 * // With every failure accepted by a baseline (its note as `problem`):
 * // 'PASSED: no new failure; 8 known failures accepted by contract-baseline.json, 1 documented (395 passed, 0 skipped)'
 */
export function verdictLine(
  verdict: Verdict,
  summary: ContractReport['summary'],
  failOn: FailOn,
  problem?: string,
): string {
  const counts = `(${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} not run)`;
  if (verdict === 'unreachable')
    return `UNREACHABLE: ${problem ?? 'the target could not be reached'}`;
  if (verdict === 'key-refused') return `KEY REFUSED: ${problem ?? 'the target refused the key'}`;
  if (verdict === 'stopped') return `STOPPED: ${problem ?? 'the run ran out of time'} ${counts}`;
  if (verdict === 'no-verdict')
    return `NO VERDICT: ${problem ?? 'an internal error stopped the run'} ${counts}`;
  if (verdict === 'incomplete') return `INCOMPLETE: ${problem ?? 'the run stopped early'}`;
  const plural = (count: number, word: string) => `${count} ${word} check${count === 1 ? '' : 's'}`;
  // A failure the baseline accepts still fails: "holds" is said only of what has no failure at all.
  const knownDocumented = summary.knownDocumented;
  const knownInferred = summary.known - knownDocumented;
  const documented =
    summary.failedDocumented > 0
      ? `${plural(summary.failedDocumented, 'documented')} failed (the provider's own document is contradicted)`
      : knownDocumented > 0
        ? 'no new documented failure'
        : 'every documented fact holds';
  const inferred =
    summary.failedInferred > 0
      ? `${plural(summary.failedInferred, 'inferred')} failed (our model of what the provider leaves unstated is off)`
      : knownInferred > 0
        ? 'no new inferred failure'
        : 'every inferred check holds';
  const facts =
    summary.failedDocumented === 0 && summary.failedInferred === 0 && summary.known > 0
      ? 'no new failure'
      : `${documented}; ${inferred}`;
  const counted =
    verdict === 'failed' || summary.failedDocumented + summary.failedInferred === 0
      ? ''
      : `; not failing under --fail-on ${failOn}`;
  const tail = problem ? `; ${problem}` : '';
  return `${verdict === 'failed' ? 'FAILED' : 'PASSED'}: ${facts}${counted}${tail} (${summary.passed} passed, ${summary.skipped} skipped)`;
}
