// Reads an OpenAPI spec file into one plain JSON document, bundling external $refs when there are any.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse } from 'yaml';

/**
 * Collects every `$ref` value in a document that points outside it (anything not starting with `#`).
 *
 * @param {unknown} node A parsed spec, or any part of one.
 * @returns {string[]} The external references, in document order.
 * @example
 * findExternalRefs({ a: { $ref: './payment.yaml' }, b: { $ref: '#/components/schemas/X' } });
 * // => ['./payment.yaml']
 */
export function findExternalRefs(node) {
  /** @type {string[]} */
  const found = [];
  /** @param {unknown} value */
  const visit = (value) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string' && !child.startsWith('#'))
          found.push(child);
        else visit(child);
      }
    }
  };
  visit(node);
  return found;
}

/**
 * Loads a YAML or JSON spec as plain data. A single-file spec is simply parsed; a spec with
 * external `$ref`s is bundled into one document with `@redocly/openapi-core`, so runtime
 * validators get a self-contained document either way.
 *
 * @param {string} specPath Absolute or working-directory-relative path of the spec file.
 * @returns {Promise<Record<string, unknown>>} The spec document.
 * @example
 * const document = await loadSpecDocument('spec/openapi.yaml');
 * document.openapi; // => '3.1.0'
 */
export async function loadSpecDocument(specPath) {
  const document = parse(await readFile(specPath, 'utf8'));
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new Error(
      `${specPath} does not hold an OpenAPI document (expected a mapping at the top)`,
    );
  }
  if (findExternalRefs(document).length === 0) return document;
  const { bundle, createConfig } = await import('@redocly/openapi-core');
  const result = await bundle({
    ref: resolve(specPath),
    config: await createConfig({}),
  });
  const errors = result.problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0) {
    const messages = errors.map((problem) => `  ${problem.message}`).join('\n');
    throw new Error(`could not bundle ${specPath}:\n${messages}`);
  }
  return /** @type {Record<string, unknown>} */ (result.bundle.parsed);
}
