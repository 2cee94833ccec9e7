// Renders the text of the generated modules: TypeScript types of a spec, and the spec as data.
import openapiTS, { astToString } from 'openapi-typescript';

/**
 * openapi-typescript options, chosen to keep the generated types a faithful, minimal mirror of
 * the spec:
 * - `rootTypes: false`: no `SchemaPayment`-style aliases; consumers index
 *   `components['schemas']['Payment']`, so names stay the spec's own.
 * - `exportType: false`: `export interface paths { … }`, as openapi-fetch's docs use.
 * - `enum: false`: string unions, not runtime enums, so the types modules emit no JavaScript.
 * - `alphabetize: false`: keep the spec's order, so a diff of the spec and of the types match.
 * - `additionalProperties: false`: no index signatures; the SDK tolerates unknown fields at
 *   run time without widening every type.
 * - `defaultNonNullable: false`: a property is required only when the spec's `required` says
 *   so. (The default, `true`, made `capture`, which has `default: true`, a required field of
 *   `CreatePaymentRequest`, so a client could not omit it.)
 * - `silent: true`: problems in the spec are reported by `lint:spec`, not here.
 *
 * @type {import('openapi-typescript').OpenAPITSOptions}
 */
export const typeOptions = {
  rootTypes: false,
  exportType: false,
  enum: false,
  alphabetize: false,
  additionalProperties: false,
  defaultNonNullable: false,
  silent: true,
};

/**
 * The comment that opens every generated module.
 *
 * @param {string} sourceLabel The spec's path relative to the repository root.
 * @returns {string} Two comment lines ending with a newline.
 * @example
 * generatedHeader('spec/openapi.yaml');
 * // => '// generated from spec/openapi.yaml — do not edit; run `npm run generate` (pnpm generate)\n…'
 */
export function generatedHeader(sourceLabel) {
  return (
    `// generated from ${sourceLabel} — do not edit; run \`npm run generate\` (pnpm generate)\n` +
    '// at the repository root after changing the spec.\n'
  );
}

/**
 * Renders the `paths`, `components`, `webhooks` and `operations` types of a spec.
 *
 * @param {URL} specUrl `file:` URL of the spec (a URL, so relative external `$ref`s resolve).
 * @param {string} sourceLabel The spec's path relative to the repository root, for the header.
 * @returns {Promise<string>} The module text.
 * @example
 * const text = await renderTypesModule(pathToFileURL('spec/openapi.yaml'), 'spec/openapi.yaml');
 */
export async function renderTypesModule(specUrl, sourceLabel) {
  const ast = await openapiTS(specUrl, typeOptions);
  return `${generatedHeader(sourceLabel)}\n${astToString(ast).trimEnd()}\n`;
}

/**
 * Renders a module exporting the spec document as a constant, for runtime validators.
 *
 * @param {Record<string, unknown>} document The parsed (and, if needed, bundled) spec.
 * @param {string} exportName The constant's name, e.g. `openapiDocument`.
 * @param {string} sourceLabel The spec's path relative to the repository root, for the header.
 * @returns {string} The module text.
 * @example
 * renderDocumentModule({ openapi: '3.1.0' }, 'openapiDocument', 'spec/openapi.yaml');
 * // => '// generated from …\n\nexport const openapiDocument = {\n  "openapi": "3.1.0"\n} as const;\n'
 */
export function renderDocumentModule(document, exportName, sourceLabel) {
  const json = JSON.stringify(document, null, 2);
  return `${generatedHeader(sourceLabel)}\nexport const ${exportName} = ${json} as const;\n`;
}
