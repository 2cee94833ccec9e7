// applyGate: what a run's results mean under the team's gate (the selection and the baseline); `check` uses it, and any command that produces check results can.
import type { CheckResult } from '../checks/ledger.js';
import { applyBaseline, type Baseline, type BaselineOutcome } from './baseline.js';
import { type CheckSelection, isSelected } from './filters.js';

/** The gate a team puts on check results: which checks count, and which failures are known. */
export interface GateOptions {
  selection?: CheckSelection;
  baseline?: Baseline;
  /** Today's date (UTC, `YYYY-MM-DD`), against which baseline entries expire. */
  today: string;
}

/**
 * Keeps the selected checks and marks the baseline's known, expired and fixed ones; the caller
 * counts failures with `summarize` (known ones do not count) and reports `baseline`.
 *
 * @example
 * const { checks, baseline } = applyGate(results, { selection: { operations: ['createPayment'] }, baseline, today: '2026-11-25' });
 */
export function applyGate<Check extends CheckResult>(
  results: readonly Check[],
  gate: GateOptions,
): { checks: Check[]; baseline?: BaselineOutcome } {
  const selected = results.filter((check) =>
    isSelected(
      { id: check.id, operation: check.operation, provenance: check.element.provenance.kind },
      gate.selection,
    ),
  );
  if (!gate.baseline) return { checks: selected };
  const { checks, outcome } = applyBaseline(selected, gate.baseline, gate.today);
  return { checks, baseline: outcome };
}
