// The outcome of every named check of a run: how often it ran, how often it failed (with one example), or why it was skipped.
import type { ExchangeRecord } from '../runner/exchange-record.js';
import {
  type ElementRef,
  type ProvenanceKind,
  type ResolvedElement,
  resolveElement,
} from '../spec/elements.js';
import { cleanTargetText } from '../untrusted-text.js';

/** A named expectation and the spec element it enforces; `Id` is its id's literal type. */
export interface CheckDefinition<Id extends string = string> {
  /** Stable id, such as `createPayment.captured-is-succeeded` or `schema.Payment.created_at`. */
  id: Id;
  /** The spec's operationId the check belongs to (or `routes` for routes outside the spec). */
  operation: string;
  /** What the check expects, in one line. */
  title: string;
  element: ElementRef;
}

/** `scenario`: an expectation of a scenario step; `schema`: a response checked against the spec. */
export type CheckKind = 'scenario' | 'schema';

/** One failure of a check: what was expected and what came back. */
export interface CheckFailure {
  expected: string;
  actual: string;
  exchange?: ExchangeRecord;
}

/** A check's result in a report. */
export interface CheckResult {
  id: string;
  operation: string;
  title: string;
  kind: CheckKind;
  element: ResolvedElement;
  outcome: 'passed' | 'failed' | 'skipped';
  /** How many times it was evaluated. */
  runs: number;
  /** How many of those failed. */
  failures: number;
  /** Why it did not run, when skipped. */
  skipReason?: string;
  /** Skipped because the run stopped (exit 3 or 4), not because the target lacks what it needs. */
  stopped?: boolean;
  /** The time spent evaluating it, in ms: the time of the scenarios that evaluated it (a scenario check), or its share of its exchanges' time (a spec check). */
  durationMs: number;
  /** The scenarios that evaluated it (a scenario check). */
  scenarios?: string[];
  /** What the baseline (`--baseline`) says of it: a known failure, one whose entry expired, or fixed (the entry can go). */
  baseline?: { state: 'known' | 'expired' | 'fixed'; reason: string; expires?: string };
  /** The first failure, standing for all identical ones (`failures` counts them). */
  example?: CheckFailure;
  /** How many distinct actual results the failures had. */
  distinctFailures?: number;
  /** Traffic checks only (`proxy`, `replay`): whose mistake a failure is, the app's request or the target's answer. */
  cause?: 'request' | 'answer';
}

interface Entry {
  definition: CheckDefinition;
  kind: CheckKind;
  element: ResolvedElement;
  runs: number;
  failures: number;
  example?: CheckFailure;
  actuals: Set<string>;
  skipReason?: string;
  stopped?: boolean;
  durationMs: number;
  scenarios: Set<string>;
}

/** What a ledger's filter sees of a check: which checks a run reports (`--operation`, `--check`, …). */
export type LedgerFilter = (check: {
  id: string;
  operation: string;
  provenance: ProvenanceKind;
}) => boolean;

const MAX_DISTINCT = 100;

/**
 * Distinct (operation, check) entries a ledger keeps: the spec fixes a few hundred, but a schema
 * check's name can follow a target's own keys (a map's members), so a hostile answer could make
 * more. Past this, new ones are counted in one `checks.overflow` entry.
 */
export const MAX_CHECK_ENTRIES = 2000;

/** The most of a failure's `expected` or `actual` a report keeps (they quote the target's answers). */
export const MAX_EVIDENCE_CHARS = 500;

/**
 * Collects check outcomes; a check is keyed by its operation and id, so identical failures group.
 *
 * @example
 * const ledger = new CheckLedger();
 * ledger.record(definition, 'scenario', { expected: 'SUCCEEDED', actual: 'COMPLETED' });
 * ledger.results()[0]?.outcome; // 'failed'
 */
export class CheckLedger {
  private readonly entries = new Map<string, Entry>();
  private readonly excluded = new Set<string>();

  /** `include` keeps only the checks a run reports; the others are not recorded at all. */
  constructor(private readonly include?: LedgerFilter) {}

  private entry(given: CheckDefinition, kind: CheckKind): Entry | undefined {
    let definition = given;
    let key = `${definition.operation}\u0000${definition.id}`;
    if (this.excluded.has(key)) return undefined;
    if (!this.entries.has(key) && this.entries.size >= MAX_CHECK_ENTRIES) {
      definition = {
        ...given,
        id: 'checks.overflow',
        operation: 'routes',
        title: `checks past the first ${MAX_CHECK_ENTRIES} distinct ones (the target's answers made more)`,
      };
      key = 'overflow';
    }
    let entry = this.entries.get(key);
    if (!entry) {
      const element = resolveElement(definition.element);
      if (
        this.include &&
        key !== 'overflow' &&
        !this.include({
          id: definition.id,
          operation: definition.operation,
          provenance: element.provenance.kind,
        })
      ) {
        this.excluded.add(key);
        return undefined;
      }
      // An id or title can quote a target's key (a schema check on a map member): clean both.
      definition = {
        ...definition,
        id: cleanTargetText(definition.id, 200),
        title: cleanTargetText(definition.title, MAX_EVIDENCE_CHARS),
      };
      entry = {
        definition,
        kind,
        element,
        runs: 0,
        failures: 0,
        actuals: new Set(),
        durationMs: 0,
        scenarios: new Set(),
      };
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Whether the ledger's filter keeps a check (a scenario skips steps that evaluate only checks it drops). */
  includes(definition: CheckDefinition): boolean {
    return this.include === undefined || this.entry(definition, 'scenario') !== undefined;
  }

  /** Lists a check before it runs, so a check that never runs is reported as skipped. */
  declare(definition: CheckDefinition, kind: CheckKind): void {
    this.entry(definition, kind);
  }

  /**
   * Records one evaluation: a pass when `failure` is undefined; `durationMs` is the time it took.
   * A failure's `expected` and `actual` quote the target: they are cleaned and capped here.
   */
  record(
    definition: CheckDefinition,
    kind: CheckKind,
    failure?: CheckFailure,
    durationMs = 0,
  ): void {
    const entry = this.entry(definition, kind);
    if (!entry) return;
    entry.runs += 1;
    entry.durationMs += Math.max(0, durationMs);
    if (!failure) return;
    entry.failures += 1;
    const actual = cleanTargetText(failure.actual, MAX_EVIDENCE_CHARS);
    entry.example ??= {
      expected: cleanTargetText(failure.expected, MAX_EVIDENCE_CHARS),
      actual,
      ...(failure.exchange ? { exchange: failure.exchange } : {}),
    };
    if (entry.actuals.size < MAX_DISTINCT) entry.actuals.add(actual);
  }

  /**
   * Marks a check skipped, with the reason, unless it already ran; `stopped` when the run ended
   * before it could run (a report shows it as an error, not a skip).
   */
  skip(definition: CheckDefinition, kind: CheckKind, reason: string, stopped = false): void {
    const entry = this.entry(definition, kind);
    if (!entry || entry.runs > 0 || entry.skipReason !== undefined) return;
    entry.skipReason = cleanTargetText(reason, MAX_EVIDENCE_CHARS);
    if (stopped) entry.stopped = true;
  }

  /**
   * Adds a scenario's time to a check it evaluated: a scenario check's time is the time of the
   * scenarios that evaluated it (read on the run's clock).
   */
  addScenarioTime(definition: CheckDefinition, scenario: string, durationMs: number): void {
    const entry = this.entry(definition, 'scenario');
    if (!entry) return;
    entry.durationMs += Math.max(0, durationMs);
    entry.scenarios.add(scenario);
  }

  /** Every check, documented failures first, then inferred failures, passes and skips, by operation and id. */
  results(): CheckResult[] {
    const rank = (result: CheckResult) =>
      result.outcome === 'failed'
        ? result.element.provenance.kind === 'documented'
          ? 0
          : 1
        : result.outcome === 'passed'
          ? 2
          : 3;
    return [...this.entries.values()]
      .map((entry): CheckResult => {
        const outcome = entry.failures > 0 ? 'failed' : entry.runs > 0 ? 'passed' : 'skipped';
        const result: CheckResult = {
          id: entry.definition.id,
          operation: entry.definition.operation,
          title: entry.definition.title,
          kind: entry.kind,
          element: entry.element,
          outcome,
          runs: entry.runs,
          failures: entry.failures,
          durationMs: entry.durationMs,
          ...(entry.scenarios.size > 0 ? { scenarios: [...entry.scenarios] } : {}),
        };
        if (outcome === 'skipped') {
          result.skipReason = entry.skipReason ?? 'not exercised by this run';
          if (entry.stopped) result.stopped = true;
        }
        if (entry.example) {
          result.example = entry.example;
          result.distinctFailures = entry.actuals.size;
        }
        return result;
      })
      .sort(
        (a, b) =>
          rank(a) - rank(b) || a.operation.localeCompare(b.operation) || a.id.localeCompare(b.id),
      );
  }
}
