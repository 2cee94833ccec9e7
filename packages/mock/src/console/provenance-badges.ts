// The API reference's documents: a copy of a spec with each element's x-provenance shown as a badge in its description.

/** A JSON value of a spec document. */
type Node = unknown;

interface Provenance {
  kind: 'documented' | 'inferred';
  /** The provider's section (documented) or the reason (inferred). */
  detail: string | undefined;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The badge of one element: `documented §4.1`, or `inferred` followed by its reason.
 *
 * @example
 * badge({ kind: 'documented', detail: '4.1' });
 * // '<span class="provenance provenance-documented" title="Stated by the provider (section 4.1)">documented · §4.1</span>'
 */
export function badge(provenance: Provenance): string {
  if (provenance.kind === 'documented') {
    const section = provenance.detail === undefined ? '' : ` · §${escapeHtml(provenance.detail)}`;
    const title = `Stated by the provider${provenance.detail === undefined ? '' : ` (section ${escapeHtml(provenance.detail)})`}`;
    return `<span class="provenance provenance-documented" title="${title}">documented${section}</span>`;
  }
  const reason =
    provenance.detail === undefined
      ? ''
      : ` <em class="provenance-reason">${escapeHtml(provenance.detail)}</em>`;
  return `<span class="provenance provenance-inferred" title="Our model: the provider does not show this">inferred</span>${reason}`;
}

function provenanceOf(node: Record<string, unknown>, inherited: Provenance | undefined) {
  const kind = node['x-provenance'];
  if (kind !== 'documented' && kind !== 'inferred') return inherited;
  const detail = kind === 'documented' ? node['x-provenance-ref'] : node['x-provenance-note'];
  return { kind, detail: typeof detail === 'string' ? detail : undefined } satisfies Provenance;
}

/** Values shown as data, never annotated. */
const DATA_KEYS = new Set(['examples', 'example', 'enum', 'const', 'default']);

function annotate(node: Node, inherited: Provenance | undefined, isProperty: boolean): Node {
  if (Array.isArray(node)) return node.map((item) => annotate(item, inherited, false));
  if (typeof node !== 'object' || node === null) return node;
  const source = node as Record<string, unknown>;
  const own = provenanceOf(source, inherited);
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (DATA_KEYS.has(key)) copy[key] = value;
    else if (key === 'properties' && typeof value === 'object' && value !== null) {
      copy[key] = Object.fromEntries(
        Object.entries(value).map(([name, item]) => [name, annotate(item, own, true)]),
      );
    } else copy[key] = annotate(value, own, false);
  }
  // Every element with its own x-provenance, and every field (inheriting its parent's).
  if (own !== undefined && (typeof source['x-provenance'] === 'string' || isProperty)) {
    const text = typeof source.description === 'string' ? source.description : '';
    copy.description = text === '' ? badge(own) : `${badge(own)}\n\n${text}`;
  }
  return copy;
}

/**
 * A copy of a spec document in which every operation, parameter, response, header, schema and
 * property shows its provenance (its own `x-provenance`, or the nearest parent's) as a badge at
 * the start of its description. The spec itself is not changed.
 *
 * @example
 * const shown = withProvenanceBadges(openapiDocument);
 * shown.paths['/v1/payments'].post.description.startsWith('<span class="provenance provenance-documented"'); // true
 */
export function withProvenanceBadges<Document extends object>(document: Document): Document {
  return annotate(document, undefined, false) as Document;
}
