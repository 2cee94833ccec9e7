// Which spec element a difference is on (down to a documented enum value) and what to change for it, from how each target fared against the spec.
import type { CheckResult } from '../checks/ledger.js';
import type { ContractReport } from '../report.js';
import { type ElementRef, type ResolvedElement, resolveElement } from '../spec/elements.js';
import { schemaAt } from './forms.js';

/** What to change for a difference: our spec (then the mock), the mock, the provider (it breaks its document), or nothing. */
export type Change = 'spec' | 'mock' | 'provider' | 'nothing';

/** The order in which a change wins when one element differs in several steps. */
export const CHANGE_RANK: Record<Change, number> = { provider: 0, spec: 1, mock: 2, nothing: 3 };

/**
 * The element a value difference is on: the element itself, or one of its enum values when the
 * spec gives that value its own provenance (`x-provenance-values`), a documented one first.
 *
 * @example
 * elementOfValues({ pointer: '/components/schemas/Payment/properties/status' }, ['COMPLETED', 'SUCCEEDED']);
 * // { pointer: …, value: 'SUCCEEDED', provenance: { kind: 'documented', section: '3' }, … }
 */
export function elementOfValues(ref: ElementRef, values: unknown[]): ResolvedElement {
  const perValue = schemaAt(ref.spec ?? 'openapi', ref.pointer)?.['x-provenance-values'];
  const candidates = values
    .filter((value): value is string => typeof value === 'string')
    .filter((value) => perValue !== null && typeof perValue === 'object' && value in perValue)
    .map((value) => resolveElement({ ...ref, value }));
  return (
    candidates.find((element) => element.provenance.kind === 'documented') ??
    candidates[0] ??
    resolveElement(ref)
  );
}

/** The pointers an element stands for: its own and, through a `$ref`, its target's. */
function pointersOf(element: ResolvedElement): string[] {
  const pointers = [element.pointer];
  const schema = schemaAt(element.spec, element.pointer);
  for (const [name, node] of Object.entries(schemaAt(element.spec, '/components/schemas') ?? {}))
    if (node === schema) pointers.push(`/components/schemas/${name}`);
  return pointers;
}

/** The failed checks of a report on this element (or an element that encloses it) in this operation; documented ones first, then the closest. */
function failedOn(
  report: ContractReport,
  operation: string,
  element: ResolvedElement,
  values: readonly string[],
): CheckResult[] {
  const pointers = pointersOf(element);
  return report.checks
    .filter(
      (check) =>
        check.outcome === 'failed' &&
        (check.operation === operation || operation === 'webhooks') &&
        (check.element.value === undefined || values.includes(check.element.value)) &&
        pointers.some(
          (pointer) =>
            pointer === check.element.pointer || pointer.startsWith(`${check.element.pointer}/`),
        ),
    )
    .sort(
      (a, b) =>
        Number(a.element.provenance.kind !== 'documented') -
          Number(b.element.provenance.kind !== 'documented') ||
        b.element.pointer.length - a.element.pointer.length,
    );
}

/** What `decide` concludes: the change, why, and the element to file the difference on. */
export interface Decision {
  change: Change;
  reason: string;
  element: ResolvedElement;
}

/**
 * Decides what to change for a difference at an element. The provider failing a check there
 * comes first: on a documented element (or when the check it fails is documented, which then
 * files the difference on that check's element) the provider breaks its own document; on an
 * inferred one our model is off. Then the mock failing one; then a sandbox difference the spec
 * documents; else the mock should follow the provider.
 *
 * @example
 * decide(live.report, against.report, 'createPayment', element, ['COMPLETED', 'SUCCEEDED']).change; // 'provider'
 */
export function decide(
  live: ContractReport,
  against: ContractReport,
  operation: string,
  element: ResolvedElement,
  values: readonly string[] = [],
): Decision {
  const liveFailed = failedOn(live, operation, element, values)[0];
  if (liveFailed) {
    const filedOn =
      element.provenance.kind === 'inferred' && liveFailed.element.provenance.kind === 'documented'
        ? liveFailed.element
        : element;
    return filedOn.provenance.kind === 'documented'
      ? {
          change: 'provider',
          reason: `the provider contradicts its own document (§${filedOn.provenance.section}, ${liveFailed.id} fails on it): report it; keep the spec`,
          element: filedOn,
        }
      : {
          change: 'spec',
          reason: `the provider breaks our inferred model (${liveFailed.id}): correct the spec, then the mock follows`,
          element,
        };
  }
  const mockFailed = failedOn(against, operation, element, values)[0];
  if (mockFailed)
    return {
      change: 'mock',
      reason: `the mock breaks the spec (${mockFailed.id}) where the provider holds it: fix the mock`,
      element,
    };
  if (element.provenance.kind === 'inferred' && /sandbox/i.test(element.provenance.note ?? '')) {
    return {
      change: 'nothing',
      reason: `a documented difference of a sandbox: ${element.provenance.note}`,
      element,
    };
  }
  return {
    change: 'mock',
    reason: 'both hold the spec, which allows either: make the mock behave like the provider',
    element,
  };
}
