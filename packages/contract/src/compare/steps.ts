// Compares two scenarios' steps: aligned one by one, a batch of requests sent at once as a race (by its winner), each step by status, code, headers, events and body.
import { MAX_JSON_DEPTH } from '../runner/json-depth.js';
import type { TraceStep } from '../runner/scenario.js';
import type { ElementRef } from '../spec/elements.js';
import { cleanTargetText } from '../untrusted-text.js';
import { flattenBody, formOf, schemaAt } from './forms.js';

/** The aspects a difference can be in. */
export type Aspect = 'status' | 'code' | 'header' | 'shape' | 'value' | 'events' | 'path';

/** The longest value or field a difference shows, in characters (a target's text, cleaned). */
export const MAX_SHOWN_CHARS = 200;

/** One difference in one step, before differences are grouped by element. */
export interface StepDifference {
  step: number;
  label: string;
  operation: string;
  aspect: Aspect;
  element: ElementRef;
  live: string;
  against: string;
  field?: string;
  /** The raw values on each side, when they are compared by value (an enum value may be documented). */
  values?: unknown[];
  /** For `path`: the step compared last before the scenarios parted. */
  after?: number;
}

/** Where a body's field sits in the spec: the element, and whether the spec locates the field itself. */
export type ElementAt = (
  step: TraceStep,
  path: string[],
) => { ref: ElementRef; located: boolean } | undefined;

const shown = (text: string) => cleanTargetText(text, MAX_SHOWN_CHARS);

/** The header a replay carries: which requests of a batch replay is the race's. */
const RACE_HEADERS = new Set(['idempotent-replayed']);

/** `request-id` → `Request-Id`. */
const headerName = (header: string) =>
  header.replace(
    /(^|-)([a-z])/g,
    (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`,
  );

/**
 * Compares two aligned steps: status, code, headers, events, and the body's fields by form.
 *
 * @example
 * compareStep(liveStep, mockStep, 3, elementAt, (difference) => differences.push(difference));
 */
export function compareStep(
  a: TraceStep,
  b: TraceStep,
  step: number,
  elementAt: ElementAt,
  emit: (difference: StepDifference) => void,
  ignoreHeaders: ReadonlySet<string> = new Set(),
): void {
  const add = (difference: Omit<StepDifference, 'step' | 'label' | 'operation'>) =>
    emit({ step, label: a.label, operation: a.operation, ...difference });
  if (a.label === 'events') {
    const left = shown(JSON.stringify(a.body) ?? '');
    const right = shown(JSON.stringify(b.body) ?? '');
    if (left !== right)
      add({
        aspect: 'events',
        element: { pointer: '/components/schemas/EventType' },
        live: left,
        against: right,
      });
    return;
  }
  const statusElement = elementAt(a, [])?.ref ?? { pointer: '/components/schemas/Problem' };
  if (a.status !== b.status) {
    add({
      aspect: 'status',
      element: statusElement,
      live: String(a.status),
      against: String(b.status),
    });
    // Another class of answer (a 4xx where the other side succeeded): the bodies are not comparable.
    if (Math.floor((a.status ?? 0) / 100) !== Math.floor((b.status ?? 0) / 100)) return;
  }
  if (a.code !== b.code) {
    add({
      aspect: 'code',
      element: {
        pointer: '/components/schemas/ErrorCode',
        value: shown(b.code ?? a.code ?? ''),
      },
      live: a.code === undefined ? '(none)' : shown(a.code),
      against: b.code === undefined ? '(none)' : shown(b.code),
      field: 'code',
      values: [b.code, a.code],
    });
  }
  for (const header of new Set([...(a.headers ?? []), ...(b.headers ?? [])])) {
    if (ignoreHeaders.has(header)) continue;
    const left = a.headers?.includes(header);
    const right = b.headers?.includes(header);
    if (left === right) continue;
    add({
      aspect: 'header',
      element: { pointer: `/components/headers/${headerName(header)}` },
      live: left ? 'sent' : 'absent',
      against: right ? 'sent' : 'absent',
      field: headerName(header),
    });
  }
  if (a.tooDeep || b.tooDeep) {
    // A body nested past the transport's limit was not read: it differs as a whole, once.
    if (a.tooDeep !== b.tooDeep) {
      const form = (step: TraceStep) =>
        step.tooDeep
          ? `a body nested deeper than ${MAX_JSON_DEPTH} levels (not read)`
          : 'a body read';
      add({ aspect: 'shape', element: statusElement, live: form(a), against: form(b) });
    }
    return;
  }
  compareBodies(a, b, elementAt, add);
}

/** Compares two bodies leaf by leaf: a field on one side only is `shape`, another value or form is `value`. */
function compareBodies(
  a: TraceStep,
  b: TraceStep,
  elementAt: ElementAt,
  add: (difference: Omit<StepDifference, 'step' | 'label' | 'operation'>) => void,
): void {
  type Read = { form: string; value: unknown; by: 'value' | 'form' };
  const read = (step: TraceStep) => {
    const leaves = new Map<string, Read>();
    for (const leaf of flattenBody(step.body)) {
      const path = leaf.path.join('/');
      if (path === 'code' || /(^|\/)0$/.test(path)) continue;
      if (leaf.marker) {
        leaves.set(path, { form: leaf.marker, value: undefined, by: 'form' });
        continue;
      }
      // A list's first item is whichever object the key's history put first (keys differ, and a
      // second holds many creations): only which fields it has is compared, not their values.
      if (leaf.path.some((segment) => /^\d+$/.test(segment))) {
        leaves.set(path, { form: 'present', value: undefined, by: 'form' });
        continue;
      }
      const at = elementAt(step, leaf.path);
      const schema = at?.located ? schemaAt(at.ref.spec ?? 'openapi', at.ref.pointer) : undefined;
      leaves.set(path, {
        ...formOf(leaf.path.at(-1) ?? '', leaf.value, schema),
        value: leaf.value,
      });
    }
    return leaves;
  };
  const left = read(a);
  const right = read(b);
  for (const path of new Set([...left.keys(), ...right.keys()])) {
    const l = left.get(path);
    const r = right.get(path);
    if (l?.form === r?.form) continue;
    const segments = path.split('/').filter(Boolean);
    const element = elementAt(l ? a : b, segments)?.ref ?? {
      pointer: '/components/schemas/Problem',
    };
    const field = shown(path);
    if (l === undefined || r === undefined)
      add({
        aspect: 'shape',
        element,
        live: l ? shown(l.form) : '(absent)',
        against: r ? shown(r.form) : '(absent)',
        field,
      });
    else
      add({
        aspect: 'value',
        element,
        live: shown(l.form),
        against: shown(r.form),
        field,
        ...(l.by === 'value' || r.by === 'value' ? { values: [r.value, l.value] } : {}),
      });
  }
}

/** How many steps from `index` were sent in one batch (1 for a step sent alone). */
export function batchLength(steps: readonly TraceStep[], index: number): number {
  const batch = steps[index]?.batch;
  if (batch === undefined) return 1;
  let end = index + 1;
  while (end < steps.length && steps[end]?.batch === batch) end += 1;
  return end - index;
}

/** The order a batch's answers stand for it: a first (not replayed) success, a success, any other answer, a 409 last. */
function rank(step: TraceStep): number {
  const status = step.status ?? 0;
  if (status >= 200 && status < 300) return step.headers?.includes('idempotent-replayed') ? 1 : 0;
  return status === 409 ? 3 : 2;
}

/**
 * Compares two batches of requests sent at once. Which of them wins, and whether the others
 * replay it or find the key in use (409), is the race's, on either target: the batches are
 * compared by their winners, and by their 409s when both have some, replay headers aside.
 *
 * @example
 * compareBatch(liveSteps.slice(6, 11), mockSteps.slice(6, 11), 6, elementAt, emit);
 */
export function compareBatch(
  a: readonly TraceStep[],
  b: readonly TraceStep[],
  step: number,
  elementAt: ElementAt,
  emit: (difference: StepDifference) => void,
): void {
  const sorted = (steps: readonly TraceStep[]) => [...steps].sort((x, y) => rank(x) - rank(y));
  const left = sorted(a);
  const right = sorted(b);
  const [winnerA, winnerB] = [left[0], right[0]];
  if (!winnerA || !winnerB) return;
  compareStep(winnerA, winnerB, step, elementAt, emit, RACE_HEADERS);
  const lostA = left.find((item) => rank(item) === 3);
  const lostB = right.find((item) => rank(item) === 3);
  if (lostA && lostB && lostA !== winnerA && lostB !== winnerB)
    compareStep(lostA, lostB, step, elementAt, emit, RACE_HEADERS);
}
