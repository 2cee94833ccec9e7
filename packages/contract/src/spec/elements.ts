// Spec elements by JSON pointer: their provenance (down to one enum value or a response's status code) and their line in spec/openapi.yaml.
import { specFile, specLines } from '../generated/spec-lines.js';
import { type SpecDocument, type SpecName, specDocuments } from './spec-index.js';

/** Whether the provider's document states an element, or it is our model of a part left "not shown". */
export type ProvenanceKind = 'documented' | 'inferred';

/** An element's provenance as the spec writes it: the section that states it, or why we inferred it. */
export interface Provenance {
  kind: ProvenanceKind;
  /** `x-provenance-ref` of a documented element: the provider document's section, such as `2.1`. */
  section?: string;
  /** `x-provenance-note` of an inferred element: why the spec models it this way. */
  note?: string;
}

/** A spec element a check enforces. */
export interface ElementRef {
  /** Which spec document holds it; default `openapi`. */
  spec?: SpecName;
  /** Its JSON pointer, such as `/components/schemas/Payment/properties/created_at`. */
  pointer: string;
  /** One enum value of the element, when the check enforces that value (its provenance may differ from its siblings'). */
  value?: string;
  /** `status`: the response's status code, which carries its own provenance (`x-status-provenance`). */
  facet?: 'status';
}

/** An element with everything a report shows of it. */
export interface ResolvedElement {
  spec: SpecName;
  pointer: string;
  value?: string;
  facet?: 'status';
  provenance: Provenance;
  /** The spec file and line where the element starts, for annotations (openapi only). */
  file?: string;
  line?: number;
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Escapes one JSON-pointer token (RFC 6901).
 *
 * @example
 * pointerToken('/v1/payments'); // '~1v1~1payments'
 */
export function pointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The pointer of an operation: `/paths/<escaped path>/<method>`.
 *
 * @example
 * operationPointer('/v1/payments', 'post'); // '/paths/~1v1~1payments/post'
 */
export function operationPointer(path: string, method: string): string {
  return `/paths/${pointerToken(path)}/${method.toLowerCase()}`;
}

/**
 * Reads the node at a JSON pointer, or `undefined`.
 *
 * @example
 * nodeAt(specDocuments.openapi, '/components/schemas/Payment')?.type; // 'object'
 */
export function nodeAt(document: SpecDocument, pointer: string): Node | undefined {
  let current: unknown = document;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    current = isNode(current) ? current[token] : undefined;
  }
  return isNode(current) ? current : undefined;
}

/**
 * The provenance a node carries itself, or `undefined`.
 *
 * @example
 * ownProvenance({ 'x-provenance': 'documented', 'x-provenance-ref': '2.1' }); // { kind: 'documented', section: '2.1' }
 */
export function ownProvenance(
  node: Node | undefined,
  prefix = 'x-provenance',
): Provenance | undefined {
  const kind = node?.[prefix];
  if (kind === 'documented') return { kind, section: String(node?.[`${prefix}-ref`] ?? '') };
  if (kind === 'inferred') return { kind, note: String(node?.[`${prefix}-note`] ?? '') };
  return undefined;
}

/** The `$ref` a node points to, as a pointer, or `undefined`. */
function refPointer(node: Node | undefined): string | undefined {
  const ref = node?.$ref;
  return typeof ref === 'string' && ref.startsWith('#') ? ref.slice(1) : undefined;
}

/**
 * The provenance of the element at a pointer: its own, else that of the `$ref` it holds, else the
 * nearest enclosing element's (the spec lets a property inherit from its schema). With `value`,
 * a per-value `x-provenance-values` entry wins; with `facet: 'status'`, `x-status-provenance`.
 *
 * @example
 * resolveProvenance(specDocuments.openapi, { pointer: '/components/schemas/PaymentStatus', value: 'SUCCEEDED' });
 * // { kind: 'documented', section: '3' }
 */
export function resolveProvenance(document: SpecDocument, element: ElementRef): Provenance {
  let pointer = element.pointer;
  for (let depth = 0; depth < 10; depth++) {
    const node = nodeAt(document, pointer);
    if (element.facet === 'status') {
      const status = ownProvenance(node, 'x-status-provenance');
      if (status) return status;
    }
    if (element.value !== undefined) {
      const values = node?.['x-provenance-values'];
      const perValue = isNode(values) ? values[element.value] : undefined;
      const own = isNode(perValue) ? ownProvenance(perValue) : undefined;
      if (own) return own;
    }
    const own = ownProvenance(node);
    if (own) return own;
    const target = refPointer(node);
    if (!target) break;
    pointer = target;
  }
  const segments = element.pointer.split('/');
  for (let length = segments.length - 1; length > 1; length--) {
    const own = ownProvenance(nodeAt(document, segments.slice(0, length).join('/')));
    if (own) return own;
  }
  return { kind: 'inferred', note: `no x-provenance at ${element.pointer}` };
}

/**
 * Resolves an element: its provenance and, for the provider's spec, its file and line.
 *
 * @example
 * resolveElement({ pointer: '/components/schemas/Timestamp' });
 * // { spec: 'openapi', pointer: …, provenance: { kind: 'documented', section: '2.1' }, file: 'spec/openapi.yaml', line: 1629 }
 */
export function resolveElement(
  element: ElementRef,
  documents: Record<SpecName, SpecDocument> = specDocuments,
): ResolvedElement {
  const spec = element.spec ?? 'openapi';
  const resolved: ResolvedElement = {
    spec,
    pointer: element.pointer,
    provenance: resolveProvenance(documents[spec], element),
  };
  if (element.value !== undefined) resolved.value = element.value;
  if (element.facet !== undefined) resolved.facet = element.facet;
  if (spec === 'openapi') {
    const line = lineOf(element.pointer);
    if (line !== undefined) {
      resolved.file = specFile;
      resolved.line = line;
    }
  }
  return resolved;
}

/** The line of the element, or of its nearest enclosing element with a known line. */
function lineOf(pointer: string): number | undefined {
  const segments = pointer.split('/');
  for (let length = segments.length; length > 1; length--) {
    const line = specLines[segments.slice(0, length).join('/')];
    if (line !== undefined) return line;
  }
  return undefined;
}

/**
 * One line naming a provenance, as every report writes it.
 *
 * @example
 * describeProvenance({ kind: 'documented', section: '2.1' }); // 'documented (provider document §2.1)'
 */
export function describeProvenance(provenance: Provenance): string {
  return provenance.kind === 'documented'
    ? `documented (provider document §${provenance.section})`
    : `inferred: ${provenance.note}`;
}

/** Where a body or header value sits in the spec, found by walking a schema along an instance path. */
export interface LocatedElement {
  /** The pointer of the schema node the instance path ends at. */
  pointer: string;
  /** A short name: the nearest named schema and the property path from it, such as `Payment.created_at`. */
  name: string;
}

const COMPOSITIONS = ['allOf', 'oneOf', 'anyOf'] as const;

/**
 * Walks a schema along an instance path (`/data/3/created_at`), through `$ref`s, `properties`,
 * `items` and compositions, to the schema node that governs that value.
 *
 * @example
 * locateElement(specDocuments.openapi, '/components/schemas/PaymentList', ['data', '3', 'created_at']);
 * // { pointer: '/components/schemas/Payment/properties/created_at', name: 'Payment.created_at' }
 */
export function locateElement(
  document: SpecDocument,
  schemaPointer: string,
  path: string[],
): LocatedElement {
  let pointer = schemaPointer;
  let name = nameOf(schemaPointer);
  const follow = () => {
    for (let depth = 0; depth < 10; depth++) {
      const target = refPointer(nodeAt(document, pointer));
      if (!target) return;
      pointer = target;
      name = nameOf(target);
    }
  };
  follow();
  for (const segment of path) {
    follow();
    const node = nodeAt(document, pointer);
    if (!node) break;
    if (/^\d+$/.test(segment) && isNode(node.items)) {
      pointer = `${pointer}/items`;
      name = `${name}[]`;
      continue;
    }
    const direct = isNode(node.properties) && isNode((node.properties as Node)[segment]);
    if (direct) {
      pointer = `${pointer}/properties/${pointerToken(segment)}`;
      name = `${name}.${segment}`;
      continue;
    }
    const member = COMPOSITIONS.flatMap((keyword) =>
      Array.isArray(node[keyword])
        ? (node[keyword] as unknown[]).map((_, index) => `${pointer}/${keyword}/${index}`)
        : [],
    ).find((candidate) => {
      const resolved = nodeAt(document, refPointer(nodeAt(document, candidate)) ?? candidate);
      return isNode(resolved?.properties) && isNode((resolved.properties as Node)[segment]);
    });
    if (!member) {
      name = `${name}.${segment}`;
      break;
    }
    pointer = refPointer(nodeAt(document, member)) ?? member;
    pointer = `${pointer}/properties/${pointerToken(segment)}`;
    name = `${name}.${segment}`;
  }
  return { pointer, name };
}

/** `/components/schemas/Payment` → `Payment`; any other pointer → its last token. */
function nameOf(pointer: string): string {
  const match = /^\/components\/schemas\/([^/]+)$/.exec(pointer);
  if (!match && pointer.endsWith('/schema')) return 'body';
  return (match?.[1] ?? pointer.split('/').pop() ?? pointer)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
}
