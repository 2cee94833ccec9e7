// Choosing what runs: --operation, --check, --provenance and --exclude as one selection, checked against every check there is, and the scenarios a selection needs.
import type { CheckDefinition, CheckKind } from '../checks/ledger.js';
import { ConfigurationError } from '../errors.js';
import type { Scenario } from '../runner/scenario.js';
import { scenarios as allScenarios } from '../scenarios/index.js';
import { type ProvenanceKind, resolveElement } from '../spec/elements.js';
import { createResponseValidator } from '../validation/response-validator.js';

/** Which checks run (and are reported): all of them when empty. */
export interface CheckSelection {
  /** Only checks of these operations (`createPayment`, or `errors`, `routes`, `webhooks`). */
  operations?: string[];
  /** Only checks whose id matches one of these globs (`*` any run of characters, `?` one). */
  checks?: string[];
  /** Only documented, or only inferred, checks. */
  provenance?: ProvenanceKind;
  /** Not the checks whose id matches one of these globs. */
  exclude?: string[];
}

/** A check as a selection sees it. */
export interface SelectableCheck {
  id: string;
  operation: string;
  provenance: ProvenanceKind;
}

/** Every check a run can report, with its kind: the scenarios' and the spec's (`schema.*`, `header.*`, …). */
export interface KnownCheck extends SelectableCheck {
  kind: CheckKind;
  title: string;
}

/** Values listed at most in an error message. */
const MAX_LISTED = 30;

/**
 * A glob on check ids as a regular expression: `*` is any run of characters (dots included), `?`
 * one character, anything else itself.
 *
 * @example
 * globToRegExp('createPayment.*').test('createPayment.pending'); // true
 */
export function globToRegExp(glob: string): RegExp {
  const source = [...glob]
    .map((character) =>
      character === '*'
        ? '.*'
        : character === '?'
          ? '.'
          : character.replace(/[\\^$.|+()[\]{}]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`, 's');
}

const anyMatch = (globs: string[], id: string) => globs.some((glob) => globToRegExp(glob).test(id));

/**
 * Whether a selection includes a check.
 *
 * @example
 * isSelected({ id: 'createPayment.pending', operation: 'createPayment', provenance: 'inferred' }, { provenance: 'documented' }); // false
 */
export function isSelected(check: SelectableCheck, selection: CheckSelection = {}): boolean {
  if (selection.operations?.length && !selection.operations.includes(check.operation)) return false;
  if (selection.provenance && check.provenance !== selection.provenance) return false;
  if (selection.checks?.length && !anyMatch(selection.checks, check.id)) return false;
  if (selection.exclude?.length && anyMatch(selection.exclude, check.id)) return false;
  return true;
}

/**
 * Whether a selection narrows anything.
 *
 * @example
 * isEmptySelection({}); // true
 */
export function isEmptySelection(selection: CheckSelection = {}): boolean {
  return (
    !selection.operations?.length &&
    !selection.checks?.length &&
    !selection.exclude?.length &&
    selection.provenance === undefined
  );
}

/**
 * A check definition as a selection sees it (its provenance resolved from the spec).
 *
 * @example
 * selectable(createsPayment).provenance; // 'inferred'
 */
export function selectable(definition: CheckDefinition): SelectableCheck {
  return {
    id: definition.id,
    operation: definition.operation,
    provenance: resolveElement(definition.element).provenance.kind,
  };
}

let known: KnownCheck[] | undefined;

/**
 * Every check a `check` run can report: each scenario's checks, then each spec check an answer
 * of an operation can exercise.
 *
 * @example
 * knownChecks().filter((check) => check.kind === 'scenario').length; // 101
 */
export function knownChecks(): KnownCheck[] {
  if (known) return known;
  const seen = new Map<string, KnownCheck>();
  const add = (definition: CheckDefinition, kind: CheckKind) => {
    const key = `${definition.operation}\u0000${definition.id}`;
    if (!seen.has(key)) seen.set(key, { ...selectable(definition), kind, title: definition.title });
  };
  for (const scenario of allScenarios) for (const check of scenario.checks) add(check, 'scenario');
  for (const check of createResponseValidator().declaredChecks()) add(check, 'schema');
  known = [...seen.values()];
  return known;
}

/** A list for an error message, cut at MAX_LISTED. */
function listed(values: readonly string[]): string {
  const shown = values.slice(0, MAX_LISTED).join(', ');
  return values.length > MAX_LISTED ? `${shown}, … (${values.length - MAX_LISTED} more)` : shown;
}

/**
 * Checks a selection against the checks there are; throws a ConfigurationError (exit 2) naming the
 * flag for an unknown operation, a glob that matches no check, or a selection that leaves nothing.
 *
 * @example
 * validateSelection({ operations: ['createPaymnt'] }); // throws: --operation createPaymnt is not an operation; one of createPayment, …
 */
export function validateSelection(
  selection: CheckSelection,
  checks: readonly KnownCheck[] = knownChecks(),
): void {
  const operations = [...new Set(checks.map((check) => check.operation))].sort();
  for (const operation of selection.operations ?? []) {
    if (!operations.includes(operation)) {
      throw new ConfigurationError(
        `--operation ${JSON.stringify(operation)} is not an operation; use one of ${listed(operations)}`,
      );
    }
  }
  for (const [flag, globs] of [
    ['--check', selection.checks],
    ['--exclude', selection.exclude],
  ] as const) {
    for (const glob of globs ?? []) {
      if (glob.trim() === '') throw new ConfigurationError(`${flag} needs a glob on check ids`);
      if (!checks.some((check) => globToRegExp(glob).test(check.id))) {
        const ids = [...new Set(checks.map((check) => check.id))];
        const prefix = glob.split(/[*?.]/)[0] ?? '';
        const near = ids.filter((id) => prefix !== '' && id.startsWith(prefix));
        throw new ConfigurationError(
          `${flag} ${JSON.stringify(glob)} matches no check; check ids are like ${listed(near.length > 0 ? near : ids)} (\`list\` shows them all)`,
        );
      }
    }
  }
  if (!checks.some((check) => isSelected(check, selection))) {
    throw new ConfigurationError(
      'the selection (--operation, --check, --provenance, --exclude) leaves no check to run',
    );
  }
}

/**
 * The scenarios a selection needs, in run order: each that holds a selected check only it holds;
 * then, for a selected check several hold (`createPayment.creates`), the first of them unless one
 * already runs; for a selected spec check, the first scenario that calls its operation.
 *
 * @example
 * selectScenarios({ operations: ['listPayments'] }).map((scenario) => scenario.id); // ['listing', 'bad-input', 'sandbox-controls']
 */
export function selectScenarios(
  selection: CheckSelection,
  scenarios: readonly Scenario[] = allScenarios,
  checks: readonly KnownCheck[] = knownChecks(),
): Scenario[] {
  if (isEmptySelection(selection)) return [...scenarios];
  const needed = new Set<Scenario>();
  const holders = (id: string, operation: string) =>
    scenarios.filter((scenario) =>
      scenario.checks.some((check) => check.id === id && check.operation === operation),
    );
  const selected = checks.filter((check) => isSelected(check, selection));
  const shared: Scenario[][] = [];
  for (const check of selected) {
    if (check.kind === 'schema') {
      const callers = scenarios.filter((scenario) =>
        scenario.checks.some((item) => item.operation === check.operation),
      );
      if (callers.length > 0) shared.push(callers);
      continue;
    }
    const holding = holders(check.id, check.operation);
    if (holding.length === 1) needed.add(holding[0] as Scenario);
    else if (holding.length > 1) shared.push(holding);
  }
  for (const group of shared) {
    if (!group.some((scenario) => needed.has(scenario))) needed.add(group[0] as Scenario);
  }
  return scenarios.filter((scenario) => needed.has(scenario));
}
