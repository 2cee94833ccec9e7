// What compare reads of a body: its leaves, flattened without recursion and within bounds, each as a value or, for what the sandbox moves (ids, times), as a form.
import { nodeAt } from '../spec/elements.js';
import { type SpecName, specDocuments } from '../spec/spec-index.js';

/** Nesting deeper than this is one leaf, `(nested deeper than 32 levels)`: no body can exhaust the stack. */
export const MAX_DEPTH = 32;
/** Leaves read of one body, at most; the rest is one leaf saying how many were left out. */
export const MAX_LEAVES = 2_000;

/** One leaf of a body: its path and its value (a scalar, or a marker for an empty or cut container). */
export interface Leaf {
  path: string[];
  value: unknown;
  /** Set for markers compare writes itself (`{}`, `(no items)`, a depth or size cut). */
  marker?: string;
}

/**
 * The leaves of a JSON value, depth first, without recursion: a list's items are read by the
 * first item only (two keys' lists differ in length), nesting past `MAX_DEPTH` and leaves past
 * `MAX_LEAVES` are each one marker leaf.
 *
 * @example
 * flattenBody({ a: [{ b: 1 }, { b: 2 }] }); // [{ path: ['a', '0', 'b'], value: 1 }]
 */
export function flattenBody(body: unknown): Leaf[] {
  const leaves: Leaf[] = [];
  const stack: Array<{ path: string[]; value: unknown }> = [{ path: [], value: body }];
  let left = 0;
  while (stack.length > 0) {
    const { path, value } = stack.pop() as { path: string[]; value: unknown };
    if (leaves.length >= MAX_LEAVES) {
      left += 1;
      continue;
    }
    const container = value !== null && typeof value === 'object';
    if (container && path.length >= MAX_DEPTH) {
      leaves.push({
        path: [...path, '(deeper)'],
        value,
        marker: `(nested deeper than ${MAX_DEPTH} levels)`,
      });
      continue;
    }
    if (Array.isArray(value)) {
      if (value.length === 0) leaves.push({ path: [...path, '0'], value, marker: '(no items)' });
      else stack.push({ path: [...path, '0'], value: value[0] });
      continue;
    }
    if (container) {
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length === 0) leaves.push({ path, value, marker: '{}' });
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, inner] = entries[index] as [string, unknown];
        stack.push({ path: [...path, key], value: inner });
      }
      continue;
    }
    leaves.push({ path, value });
  }
  if (left > 0)
    leaves.push({ path: ['…'], value: left, marker: `(${left} more fields not compared)` });
  return leaves;
}

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The schema node at an element, its `$ref`s followed (within a document and across to the
 * other: `./openapi.yaml#/…`), or `undefined`.
 *
 * @example
 * schemaAt('openapi', '/components/schemas/Payment/properties/created_at')?.format; // 'date-time'
 */
export function schemaAt(spec: SpecName, pointer: string): SchemaNode | undefined {
  let document = spec;
  let node = nodeAt(specDocuments[document], pointer);
  for (let depth = 0; depth < 10 && typeof node?.$ref === 'string'; depth++) {
    const [file, target = ''] = (node.$ref as string).split('#');
    if (file?.includes('openapi')) document = 'openapi';
    else if (file?.includes('sandbox')) document = 'sandbox';
    node = nodeAt(specDocuments[document], target);
  }
  return isNode(node) ? node : undefined;
}

/** Fields whose values differ from run to run, for leaves the spec does not locate. */
const ID_FIELD = /(^id$|_id$)/;
const TIME_FIELD = /(_at$|^now$)/;
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
/** A pattern that names an id's prefix (`^pay_.+$`, `^req_[A-Za-z0-9]+$`). */
const PREFIX_PATTERN = /^\^([a-z]+_)/;

/** How a leaf is compared: by its value, or by the form of a value the sandbox moves. */
export interface LeafForm {
  /** What is compared and shown: `"SUCCEEDED"`, `pay_…`, `9-9-9T9:9:9Z`, `a string`. */
  form: string;
  /** `value` when the leaf's own value is compared (an enum value may carry its own provenance). */
  by: 'value' | 'form';
}

/**
 * The form of a leaf: ids (a prefix pattern in the spec, or an `id` field) by prefix, times
 * (`format: date-time`, or a `_at` field) by their digit pattern, free texts and `has_more` (a
 * key's history) by type, anything else by value. `schema` is the node the spec gives the leaf, when it locates one.
 *
 * @example
 * formOf('created_at', '2026-11-22T04:20:00Z', { format: 'date-time' }); // { form: '9-9-9T9:9:9Z', by: 'form' }
 * formOf('status', 'SUCCEEDED', undefined); // { form: '"SUCCEEDED"', by: 'value' }
 */
export function formOf(key: string, value: unknown, schema: SchemaNode | undefined): LeafForm {
  // Whether a list has more depends on how many objects the key made before: its history.
  if (key === 'has_more') return { form: typeof value, by: 'form' };
  if (typeof value === 'string') {
    const pattern = typeof schema?.pattern === 'string' ? schema.pattern : '';
    const prefix = PREFIX_PATTERN.exec(pattern)?.[1];
    if (prefix || (!schema && ID_FIELD.test(key)))
      return { form: `${value.match(/^[a-z]+_/)?.[0] ?? '(no prefix)'}…`, by: 'form' };
    if (schema?.format === 'date-time' || (!schema && TIME_FIELD.test(key)))
      return { form: value.replace(/[0-9]+/g, '9'), by: 'form' };
    if (TEXT_FIELDS.has(key) && !Array.isArray(schema?.enum) && schema?.const === undefined)
      return { form: 'a string', by: 'form' };
  }
  return { form: JSON.stringify(value) ?? String(value), by: 'value' };
}
