// compare: runs the same scenarios against two targets (the provider's sandbox and our mock) and lists where they behave differently, one entry per element with the steps it showed in.
import type { ContractReport, FailOn } from '../report.js';
import type { ContractCheckOptions, ContractRun } from '../runner/run.js';
import { runContract } from '../runner/run.js';
import type { TraceStep } from '../runner/scenario.js';
import { pointerToken, type ResolvedElement, resolveElement } from '../spec/elements.js';
import { cleanTargetText } from '../untrusted-text.js';
import { createResponseValidator } from '../validation/response-validator.js';
import { CHANGE_RANK, type Change, decide, elementOfValues } from './decide.js';
import {
  type Aspect,
  batchLength,
  compareBatch,
  compareStep,
  type ElementAt,
  type StepDifference,
} from './steps.js';

export type { Change } from './decide.js';

/** Differences a comparison keeps, at most; the rest are counted in `leftOut`. */
export const MAX_DIFFERENCES = 100;
/** Steps a difference lists, at most; `occurrences` counts them all. */
export const MAX_STEPS_LISTED = 25;

/** One step a difference showed in. */
export interface Occurrence {
  scenario: string;
  /** The step's index in the scenario and its label (`POST createPayment`, `events`). */
  step: number;
  label: string;
  field?: string;
  live: string;
  against: string;
}

/** One element on which the two targets behave differently, with every step it showed in. */
export interface Difference {
  /** The first step it showed in (also `steps[0]`). */
  scenario: string;
  step: number;
  label: string;
  /** `status`, `code`, `header`, `shape` (a field present on one side only), `value` (a field's value or form), `events`, `path` (the scenario went another way). */
  aspect: Aspect;
  /** The body field or header, when the difference is in one (its first step's). */
  field?: string;
  /** What the first target (`--base-url`, the provider) did, and what the second (`--against`, the mock) did, in its first step. */
  live: string;
  against: string;
  element: ResolvedElement;
  change: Change;
  /** Why that change. */
  reason: string;
  /** The steps it showed in (at most `MAX_STEPS_LISTED`), and how many there were. */
  steps: Occurrence[];
  occurrences: number;
}

/** The result of a comparison. */
export interface Comparison {
  live: ContractReport;
  against: ContractReport;
  differences: Difference[];
  /** Differences found past `MAX_DIFFERENCES` elements, not listed (each still counts under `--fail-on`). */
  leftOut: number;
  /** Scenarios run on both targets and compared; those run on one side only (skipped on the other). */
  compared: string[];
  oneSided: string[];
  /** 0 alike under `--fail-on`, 1 a difference counts; a run that ended without a verdict (2, 3) gives its own. */
  exitCode: ContractReport['exitCode'];
  message: string;
}

/** Options of `compareTargets`: the run against each target. */
export interface CompareOptions {
  live: ContractCheckOptions;
  against: ContractCheckOptions;
}

/**
 * Runs the same scenarios against two targets and lists every difference: status, code, headers,
 * response shape and values, the state later retrieves show, and the events with their order.
 *
 * @example
 * const comparison = await compareTargets({ live: { baseUrl: LIVE, apiKey }, against: { baseUrl: 'http://127.0.0.1:4010', apiKey: 'sk_test_mock_key_1234' } });
 * for (const difference of comparison.differences) console.log(difference.label, difference.aspect, difference.change);
 */
export async function compareTargets(options: CompareOptions): Promise<Comparison> {
  const live = await runContract(options.live);
  const against = await runContract(options.against);
  return compareRuns(live, against, options.live.failOn ?? 'documented');
}

/** How many steps from `index` repeat its label: the pages of one listing (how many a key's history fills is its own). */
function pagesFrom(steps: readonly TraceStep[], index: number): number {
  const label = steps[index]?.label ?? '';
  if (!/^GET list/.test(label)) return 1;
  let end = index + 1;
  while (steps[end]?.label === label) end += 1;
  return end - index;
}

/** The steps of one scenario on both sides, compared: aligned one by one, a batch as one race, a listing's pages as far as both went. */
function compareScenario(
  liveSteps: readonly TraceStep[],
  againstSteps: readonly TraceStep[],
  elementAt: ElementAt,
  emit: (difference: StepDifference) => void,
): void {
  let i = 0;
  let j = 0;
  let previous: number | undefined;
  while (i < liveSteps.length || j < againstSteps.length) {
    const a = liveSteps[i];
    const b = againstSteps[j];
    if (!a || !b || a.label !== b.label) {
      emit({
        ...(previous === undefined ? {} : { after: previous }),
        step: i,
        label: (a ?? b)?.label ?? '',
        operation: (a ?? b)?.operation ?? '',
        aspect: 'path',
        element: { pointer: '/components/schemas/Problem' },
        live: a?.label ?? '(no more steps)',
        against: b?.label ?? '(no more steps)',
      });
      return;
    }
    previous = i;
    const batchA = batchLength(liveSteps, i);
    const batchB = batchLength(againstSteps, j);
    if (batchA > 1 || batchB > 1) {
      compareBatch(
        liveSteps.slice(i, i + batchA),
        againstSteps.slice(j, j + batchB),
        i,
        elementAt,
        emit,
      );
      i += batchA;
      j += batchB;
      continue;
    }
    // Consecutive pages of a listing: compared pairwise as far as both sides went.
    const pagesA = pagesFrom(liveSteps, i);
    const pagesB = pagesFrom(againstSteps, j);
    for (let page = 0; page < Math.min(pagesA, pagesB); page++) {
      const [x, y] = [liveSteps[i + page], againstSteps[j + page]];
      if (x && y) compareStep(x, y, i + page, elementAt, emit);
      previous = i + page;
    }
    i += pagesA;
    j += pagesB;
  }
}

/**
 * Compares two runs' steps and lists the differences, one entry per element (and aspect) with the
 * steps it showed in, each filed on its element's provenance with what to change; exit 1 when a
 * difference counts under `failOn`.
 *
 * @example
 * const comparison = compareRuns(await runContract(liveOptions), await runContract(mockOptions), 'documented');
 */
export function compareRuns(live: ContractRun, against: ContractRun, failOn: FailOn): Comparison {
  const validator = createResponseValidator();
  const elementAt: ElementAt = (step, path) => {
    const ref = validator.elementAt(step.operation, step.status ?? 200, path);
    if (!ref) return undefined;
    const last = path.at(-1);
    const located =
      last === undefined ||
      ref.pointer.endsWith(`/properties/${pointerToken(last)}`) ||
      (/^\d+$/.test(last) && ref.pointer.endsWith('/items'));
    return { ref, located };
  };
  const grouped = new Map<string, Difference>();
  let leftOut = 0;
  let leftOutDocumented = 0;
  const compared: string[] = [];
  const oneSided: string[] = [];

  for (const [scenario, liveSteps] of live.traces) {
    const againstSteps = against.traces.get(scenario);
    if (!againstSteps) {
      oneSided.push(scenario);
      continue;
    }
    compared.push(scenario);
    // A scenario that goes another way right after a difference (a step failed, so it stopped) is
    // that difference's consequence: its step is listed with it, not as an entry of its own.
    let last: { key: string; step: number } | undefined;
    const file = (raw: StepDifference) => {
      const cause =
        raw.aspect === 'path' && last && raw.after === last.step
          ? grouped.get(last.key)
          : undefined;
      if (cause) {
        cause.occurrences += 1;
        if (cause.steps.length < MAX_STEPS_LISTED)
          cause.steps.push({
            scenario,
            step: raw.step,
            label: raw.label,
            field: '(the scenario went another way)',
            live: raw.live,
            against: raw.against,
          });
        return;
      }
      const values = (raw.values ?? []).filter(
        (value): value is string => typeof value === 'string',
      );
      const element =
        raw.aspect === 'value' && raw.values
          ? elementOfValues(raw.element, raw.values)
          : resolveElement(raw.element);
      const decision = decide(live.report, against.report, raw.operation, element, values);
      const key = keyOf(raw.aspect, decision.element);
      last = { key, step: raw.step };
      const occurrence: Occurrence = {
        scenario,
        step: raw.step,
        label: raw.label,
        ...(raw.field !== undefined ? { field: raw.field } : {}),
        live: raw.live,
        against: raw.against,
      };
      const known = grouped.get(key);
      if (known) {
        known.occurrences += 1;
        if (known.steps.length < MAX_STEPS_LISTED) known.steps.push(occurrence);
        if (CHANGE_RANK[decision.change] < CHANGE_RANK[known.change]) {
          Object.assign(known, {
            change: decision.change,
            reason: decision.reason,
            element: decision.element,
          });
        }
        return;
      }
      if (grouped.size >= MAX_DIFFERENCES) {
        leftOut += 1;
        if (decision.element.provenance.kind === 'documented') leftOutDocumented += 1;
        return;
      }
      grouped.set(key, {
        ...occurrence,
        aspect: raw.aspect,
        element: decision.element,
        change: decision.change,
        reason: decision.reason,
        steps: [occurrence],
        occurrences: 1,
      });
    };
    try {
      compareScenario(liveSteps, againstSteps, elementAt, file);
    } catch (error) {
      file({
        step: 0,
        label: '(the comparison)',
        operation: '',
        aspect: 'path',
        element: { pointer: '/components/schemas/Problem' },
        live: cleanTargetText(`could not be compared: ${(error as Error).message}`, 200),
        against: '',
      });
    }
  }
  for (const scenario of against.traces.keys())
    if (!live.traces.has(scenario)) oneSided.push(scenario);

  const differences = [...grouped.values()];
  return {
    live: live.report,
    against: against.report,
    differences,
    leftOut,
    compared,
    oneSided,
    ...verdict(
      live.report,
      against.report,
      differences,
      [leftOut, leftOutDocumented],
      compared.length,
      failOn,
    ),
  };
}

/** Differences of one aspect on one element (or enum value) are one entry. */
function keyOf(aspect: Aspect, element: ResolvedElement): string {
  return JSON.stringify([
    aspect,
    element.spec,
    element.pointer,
    element.value ?? '',
    element.facet ?? '',
  ]);
}

/** The exit code and the one-line message of a comparison. */
function verdict(
  live: ContractReport,
  against: ContractReport,
  differences: readonly Difference[],
  [leftOut, leftOutDocumented]: [number, number],
  compared: number,
  failOn: FailOn,
): Pick<Comparison, 'exitCode' | 'message'> {
  const unreachable = [live, against].find(
    (report) => report.exitCode !== 0 && report.exitCode !== 1,
  );
  if (unreachable)
    return {
      exitCode: unreachable.exitCode,
      message: cleanTargetText(unreachable.message, 1000),
    };
  const documented =
    differences.filter((difference) => difference.element.provenance.kind === 'documented').length +
    leftOutDocumented;
  const inferred = differences.length + leftOut - documented;
  const counted =
    failOn === 'none'
      ? 0
      : failOn === 'documented'
        ? documented
        : failOn === 'inferred'
          ? inferred
          : documented + inferred;
  const total = differences.length + leftOut;
  return {
    exitCode: counted > 0 ? 1 : 0,
    message:
      total === 0
        ? `SAME: the two targets behave alike in ${compared} scenarios`
        : `DIFFERENT: ${total} difference${total === 1 ? '' : 's'} (${documented} on documented elements, ${inferred} on inferred ones${leftOut > 0 ? `, ${leftOut} not listed` : ''}) in ${compared} scenarios compared`,
  };
}
