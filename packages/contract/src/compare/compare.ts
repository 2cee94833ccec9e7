// compare: runs the same scenarios against two targets (the provider's sandbox and our mock) and lists where they behave differently, step by step.
import type { CheckResult } from '../checks/ledger.js';
import type { ContractReport } from '../report.js';
import type { ContractCheckOptions } from '../runner/run.js';
import { runContract } from '../runner/run.js';
import type { TraceStep } from '../runner/scenario.js';
import { type ElementRef, type ResolvedElement, resolveElement } from '../spec/elements.js';
import { createResponseValidator } from '../validation/response-validator.js';

/** What to change for a difference: our spec (then the mock), the mock, the provider (it breaks its document), or nothing. */
export type Change = 'spec' | 'mock' | 'provider' | 'nothing';

/** One place where the two targets behave differently. */
export interface Difference {
  scenario: string;
  /** The step's index in the scenario and its label (`POST createPayment`, `events`). */
  step: number;
  label: string;
  /** `status`, `code`, `header`, `shape` (a field present on one side only), `value` (a field's value or form), `events`, `path` (the scenario went another way). */
  aspect: 'status' | 'code' | 'header' | 'shape' | 'value' | 'events' | 'path';
  /** The body field or header, when the difference is in one. */
  field?: string;
  /** What the first target (`--base-url`, the provider) did, and what the second (`--against`, the mock) did. */
  live: string;
  against: string;
  element: ResolvedElement;
  change: Change;
  /** Why that change. */
  reason: string;
}

/** The result of a comparison. */
export interface Comparison {
  live: ContractReport;
  against: ContractReport;
  differences: Difference[];
  /** Scenarios run on both targets and compared; those run on one side only (skipped on the other). */
  compared: string[];
  oneSided: string[];
  exitCode: 0 | 1 | 2 | 3 | 4;
  message: string;
}

/** Options of `compareTargets`: the run against each target. */
export interface CompareOptions {
  live: ContractCheckOptions;
  against: ContractCheckOptions;
}

/** Fields whose values differ from run to run: compared by form, not by value. */
const ID_FIELD = /(^id$|_id$)/;
const TIME_FIELD = /_at$/;
const TEXT_FIELDS = new Set([
  'detail',
  'title',
  'message',
  'failure_message',
  'description',
  'secret',
  'url',
  'type',
]);

/** The form of a leaf: ids by prefix, times by their digit pattern, texts by type, anything else by value. */
function formOf(key: string, value: unknown): string {
  if (typeof value === 'string') {
    if (ID_FIELD.test(key)) return `${value.match(/^[a-z]+_/)?.[0] ?? ''}…`;
    if (TIME_FIELD.test(key)) return value.replace(/[0-9]+/g, '9');
    if (TEXT_FIELDS.has(key)) return 'a string';
  }
  return JSON.stringify(value);
}

/** Flattens a body into path → form; a list's items are compared by their first item only (a shared key's lists differ in length). */
function flatten(
  value: unknown,
  path: string[] = [],
  out = new Map<string, string>(),
): Map<string, string> {
  if (Array.isArray(value)) {
    if (value.length > 0) flatten(value[0], [...path, '0'], out);
    else out.set([...path, '0'].join('/'), '(no items)');
    return out;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) flatten(inner, [...path, key], out);
    if (Object.keys(value).length === 0) out.set(path.join('/'), '{}');
    return out;
  }
  out.set(path.join('/'), formOf(path.at(-1) ?? '', value));
  return out;
}

/** Whether a target failed a check on this element in this operation. */
function failedOn(
  report: ContractReport,
  operation: string,
  element: ResolvedElement,
): CheckResult | undefined {
  return report.checks.find(
    (check) =>
      check.outcome === 'failed' &&
      (check.operation === operation || operation === 'webhooks') &&
      (check.element.pointer === element.pointer ||
        element.pointer.startsWith(`${check.element.pointer}/`)),
  );
}

/** Decides what to change for a difference at an element, from how each target fared against the spec. */
function decide(
  live: ContractReport,
  against: ContractReport,
  operation: string,
  element: ResolvedElement,
): [Change, string] {
  const liveFailed = failedOn(live, operation, element);
  if (liveFailed) {
    return element.provenance.kind === 'documented'
      ? [
          'provider',
          `the provider contradicts its own document (§${element.provenance.section}): report it; keep the spec`,
        ]
      : [
          'spec',
          `the provider breaks our inferred model (${liveFailed.id}): correct the spec, then the mock follows`,
        ];
  }
  const mockFailed = failedOn(against, operation, element);
  if (mockFailed)
    return [
      'mock',
      `the mock breaks the spec (${mockFailed.id}) where the provider holds it: fix the mock`,
    ];
  if (element.provenance.kind === 'inferred' && /sandbox/i.test(element.provenance.note ?? '')) {
    return ['nothing', `a documented difference of a sandbox: ${element.provenance.note}`];
  }
  return [
    'mock',
    'both hold the spec, which allows either: make the mock behave like the provider',
  ];
}

/**
 * Runs the same scenarios against two targets and lists every difference: status, code, headers,
 * response shape and values, the state later retrieves show, and the events with their order.
 *
 * @example
 * const comparison = await compareTargets({ live: { baseUrl: LIVE, apiKey }, against: { baseUrl: 'http://127.0.0.1:4010', apiKey: 'sk_test_mock' } });
 * for (const difference of comparison.differences) console.log(difference.label, difference.aspect, difference.change);
 */
export async function compareTargets(options: CompareOptions): Promise<Comparison> {
  const live = await runContract(options.live);
  const against = await runContract(options.against);
  const validator = createResponseValidator();
  const differences: Difference[] = [];
  const compared: string[] = [];
  const oneSided: string[] = [];
  const resolve = (ref: ElementRef | undefined): ResolvedElement =>
    resolveElement(ref ?? { pointer: '/components/schemas/Problem' });

  for (const [scenario, liveSteps] of live.traces) {
    const againstSteps = against.traces.get(scenario);
    if (!againstSteps) {
      oneSided.push(scenario);
      continue;
    }
    compared.push(scenario);
    const length = Math.max(liveSteps.length, againstSteps.length);
    for (let step = 0; step < length; step++) {
      const a = liveSteps[step];
      const b = againstSteps[step];
      const add = (
        aspect: Difference['aspect'],
        element: ResolvedElement,
        left: string,
        right: string,
        field?: string,
      ) => {
        const [change, reason] = decide(
          live.report,
          against.report,
          (a ?? b)?.operation ?? '',
          element,
        );
        differences.push({
          scenario,
          step,
          label: (a ?? b)?.label ?? '',
          aspect,
          ...(field ? { field } : {}),
          live: left,
          against: right,
          element,
          change,
          reason,
        });
      };
      if (!a || !b || a.label !== b.label) {
        add(
          'path',
          resolve(undefined),
          a?.label ?? '(no more steps)',
          b?.label ?? '(no more steps)',
        );
        break;
      }
      compareStep(a, b, add, (path) =>
        resolve(validator.elementAt(a.operation, a.status ?? 200, path)),
      );
    }
  }
  for (const scenario of against.traces.keys())
    if (!live.traces.has(scenario)) oneSided.push(scenario);

  const unreachable = [live.report, against.report].find(
    (report) => report.exitCode === 3 || report.exitCode === 2,
  );
  const documented = differences.filter(
    (difference) => difference.element.provenance.kind === 'documented',
  ).length;
  const failOn = options.live.failOn ?? 'documented';
  const counted =
    failOn === 'none'
      ? 0
      : failOn === 'documented'
        ? documented
        : failOn === 'inferred'
          ? differences.length - documented
          : differences.length;
  const exitCode = unreachable ? unreachable.exitCode : counted > 0 ? 1 : 0;
  const message = unreachable
    ? unreachable.message
    : differences.length === 0
      ? `SAME: the two targets behave alike in ${compared.length} scenarios`
      : `DIFFERENT: ${differences.length} difference${differences.length === 1 ? '' : 's'} (${documented} on documented elements, ${differences.length - documented} on inferred ones) in ${compared.length} scenarios compared`;
  return {
    live: live.report,
    against: against.report,
    differences,
    compared,
    oneSided,
    exitCode,
    message,
  };
}

/** Compares two aligned steps: status, code, headers, events, and the body's fields by form. */
function compareStep(
  a: TraceStep,
  b: TraceStep,
  add: (
    aspect: Difference['aspect'],
    element: ResolvedElement,
    left: string,
    right: string,
    field?: string,
  ) => void,
  elementAt: (path: string[]) => ResolvedElement,
): void {
  if (a.label === 'events') {
    const left = JSON.stringify(a.body);
    const right = JSON.stringify(b.body);
    if (left !== right)
      add('events', resolveElement({ pointer: '/components/schemas/EventType' }), left, right);
    return;
  }
  if (a.status !== b.status) {
    add('status', elementAt([]), String(a.status), String(b.status));
    // Another class of answer (a 4xx where the other side succeeded): the bodies are not comparable.
    if (Math.floor((a.status ?? 0) / 100) !== Math.floor((b.status ?? 0) / 100)) return;
  }
  if (a.code !== b.code) {
    add(
      'code',
      resolveElement({ pointer: '/components/schemas/ErrorCode', value: b.code ?? a.code ?? '' }),
      a.code ?? '(none)',
      b.code ?? '(none)',
      'code',
    );
  }
  for (const header of new Set([...(a.headers ?? []), ...(b.headers ?? [])])) {
    const left = a.headers?.includes(header);
    const right = b.headers?.includes(header);
    if (left !== right) {
      const name = header.replace(
        /(^|-)([a-z])/g,
        (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`,
      );
      add(
        'header',
        resolveElement({ pointer: `/components/headers/${name}` }),
        left ? 'sent' : 'absent',
        right ? 'sent' : 'absent',
        name,
      );
    }
  }
  const left = flatten(a.body);
  const right = flatten(b.body);
  for (const path of new Set([...left.keys(), ...right.keys()])) {
    if (path === 'code' || /(^|\/)0$/.test(path)) continue;
    const l = left.get(path);
    const r = right.get(path);
    if (l === r) continue;
    const segments = path.split('/').filter(Boolean);
    const element = elementAt(segments);
    if (l === undefined || r === undefined)
      add('shape', element, l ?? '(absent)', r ?? '(absent)', path);
    else add('value', element, l, r, path);
  }
}
