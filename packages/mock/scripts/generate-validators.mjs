// CLI: compiles the request-body validators of spec/openapi.yaml and spec/sandbox.yaml into
// src/generated/request-validators.ts with Ajv's standalone code, or (--check) fails when that file
// is stale. Compiled at build time, the mock loads no Ajv compiler at run time: loading Ajv,
// adding the spec to it and compiling the first validator cost ~40 ms of every cold start.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openapiDocument } from '@payment-service/openapi';
import { sandboxDocument } from '@payment-service/openapi/sandbox';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';

const standaloneCode = standaloneModule.default ?? standaloneModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'src/generated/request-validators.ts');

/** The component schemas that operations take as a JSON request body, in spec order. */
function requestBodySchemas(document) {
  const names = [];
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      const ref = operation?.requestBody?.content?.['application/json']?.schema?.$ref;
      if (typeof ref !== 'string') continue;
      const name = ref.replace('#/components/schemas/', '');
      if (!names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** The keywords that bound how much of a body a validator walks, kept in a body's bounds schema. */
const BOUND_KEYWORDS = ['maxProperties', 'maxItems', 'maxLength'];

/** Resolves a local `#/components/schemas/…` reference of a document. */
function resolveRef(document, schema) {
  if (typeof schema?.$ref !== 'string') return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = document.components?.schemas?.[name];
  if (target === undefined) throw new Error(`unresolved reference ${schema.$ref}`);
  return resolveRef(document, target);
}

/**
 * The bounds of a request schema: its `maxProperties`, `maxItems` and `maxLength`, at the same
 * places, and nothing else. Checked first and stopping at the first failure, they keep a hostile
 * body (thousands of members or items, a huge string) from reaching the every-error validator.
 * Throws when an object or array of a request schema has no bound: the spec must give one.
 */
function boundsOf(document, schema, where) {
  const resolved = resolveRef(document, schema);
  const bounds = {};
  for (const keyword of BOUND_KEYWORDS) {
    if (resolved[keyword] !== undefined) bounds[keyword] = resolved[keyword];
  }
  if (resolved.type === 'object' && resolved.maxProperties === undefined)
    throw new Error(`${where} is an object with no maxProperties: give it one in the spec`);
  if (resolved.type === 'array' && resolved.maxItems === undefined)
    throw new Error(`${where} is an array with no maxItems: give it one in the spec`);
  if (resolved.properties !== undefined) {
    bounds.properties = Object.fromEntries(
      Object.entries(resolved.properties).map(([name, property]) => [
        name,
        boundsOf(document, property, `${where}.${name}`),
      ]),
    );
  }
  if (resolved.items !== undefined) bounds.items = boundsOf(document, resolved.items, `${where}[]`);
  return bounds;
}

/** Keywords whose value maps names to schemas (the names are not keywords). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/**
 * A copy of a schema without what validation and its messages never read (descriptions, `x-`
 * annotations, defaults), so the generated module carries only what runs.
 */
function withoutAnnotations(schema) {
  if (Array.isArray(schema)) return schema.map(withoutAnnotations);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description' || key === 'default' || key.startsWith('x-')) continue;
    copy[key] = SCHEMA_MAPS.has(key)
      ? Object.fromEntries(
          Object.entries(value).map(([name, item]) => [name, withoutAnnotations(item)]),
        )
      : withoutAnnotations(value);
  }
  return copy;
}

/** The schemas of a document's components, without annotations. */
function validationComponents(document) {
  return {
    schemas: Object.fromEntries(
      Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => [
        name,
        withoutAnnotations(schema),
      ]),
    ),
  };
}

/** Ajv's standalone code of the given schemas (name → reference), as an ES module's statements. */
function standalone(document, exportName, allErrors, extraSchemas, refs) {
  const ajv = new Ajv2020({
    allErrors,
    strict: false,
    // The messages read each failing keyword's schema (verbose).
    verbose: true,
    validateSchema: false,
    code: {
      source: true,
      esm: true,
      // Formats come from shared/formats.ts (ajv-formats' table, date-time answered faster for
      // the API's own shape), imported once at the top of the module.
      formats: _`__formats`,
    },
  });
  addFormats(ajv);
  ajv.addSchema({
    $id: `urn:payment-service:${exportName}`,
    components: validationComponents(document),
  });
  for (const schema of extraSchemas) ajv.addSchema(schema);
  return standaloneCode(ajv, refs);
}

/**
 * Two standalone validators per request body of one document (and per `extra` schema): `check`
 * (the body's bounds, then the schema, stopping at the first error: the fast path) and `explain`
 * (every error, run only on a body that `check` refused within its bounds). An `extra` schema is
 * not a request body (the testing entry checks its fixtures with it): it needs no bounds.
 */
function compile(document, exportName, extra) {
  const id = `urn:payment-service:${exportName}`;
  const bodies = requestBodySchemas(document);
  const names = [...bodies, ...extra];
  const checks = names.map((name) => ({
    $id: `${id}:check:${name}`,
    allOf: [
      bodies.includes(name)
        ? boundsOf(document, { $ref: `#/components/schemas/${name}` }, name)
        : {},
      { $ref: `${id}#/components/schemas/${name}` },
    ],
  }));
  const check = standalone(
    document,
    exportName,
    false,
    checks,
    Object.fromEntries(names.map((name) => [name, `${id}:check:${name}`])),
  );
  const explain = standalone(
    document,
    exportName,
    true,
    [],
    Object.fromEntries(names.map((name) => [name, `${id}#/components/schemas/${name}`])),
  );
  return { names, check, explain };
}

/** One standalone module's code as a function scope's statements filling `exported`. */
function scoped(code, exportName, runtime) {
  const body = code
    .replace(/^"use strict";/, '')
    .replace(/export const (\w+) = (\w+);/g, 'exported.$1 = $2;')
    .replace(/require\("ajv\/dist\/runtime\/(\w+)"\)\.default/g, (_match, helper) => {
      runtime.add(helper);
      return `__${helper}`;
    });
  if (/\brequire\(|\bimport\b|\bexport\b/.test(body)) {
    throw new Error(
      `the standalone code of ${exportName} needs a module this script does not provide`,
    );
  }
  return `(() => {
    const exported: Record<string, unknown> = {};
    ${body}
    return exported;
  })()`;
}

function render() {
  const parts = [
    // `Payment`, `Refund`, `WebhookEndpoint`, `Event` and `WebhookDelivery` check the testing entry's
    // payment fixtures and restored snapshots, and (with `RecordedRequest`) every record a store
    // reads back from disk or from Valkey/Redis (app/record-checks.ts).
    {
      document: openapiDocument,
      exportName: 'openapiRequestValidators',
      extra: ['Payment', 'Refund', 'WebhookEndpoint', 'Event'],
    },
    {
      document: sandboxDocument,
      exportName: 'sandboxRequestValidators',
      extra: ['WebhookDelivery', 'RecordedRequest'],
    },
  ].map(({ document, exportName, extra }) => ({
    exportName,
    ...compile(document, exportName, extra),
  }));
  const runtime = new Set();
  const modules = parts.map(({ exportName, names, check, explain }) => {
    // Each document's modules become function scopes, so they share no names; Ajv's run-time
    // helpers (string length in code points, deep equality) are imported once.
    const type = names.map((name) => `'${name}'`).join(' | ');
    return `/** The request-body validators of the ${exportName.replace('RequestValidators', '')} document. */
export const ${exportName}: Readonly<Record<${type}, RequestValidator>> = (() => {
  const check = ${scoped(check, exportName, runtime)};
  const explain = ${scoped(explain, exportName, runtime)};
  return Object.fromEntries(
    [${names.map((name) => `'${name}'`).join(', ')}].map((name) => [name, { check: check[name], explain: explain[name] }]),
  );
})() as never;`;
  });
  const helpers = [...runtime].sort();
  return `// @ts-nocheck: Ajv's standalone code, compiled from the spec by scripts/generate-validators.mjs.
// Generated: do not edit. \`pnpm --filter @payment-service/mock generate\` rewrites it.
${helpers
  .map((helper) => `import ${helper}Module from 'ajv/dist/runtime/${helper}.js';`)
  .join('\n')}
import { formats as __formats } from '../shared/formats.js';
import type { RequestValidator } from '../shared/compiled-validator.js';

// A CommonJS module's default import is the module under Node's ESM and its \`default\` under tsc's CommonJS.
const unwrap = (module) => module.default ?? module;
${helpers.map((helper) => `const __${helper} = unwrap(${helper}Module);`).join('\n')}

${modules.join('\n\n')}
`;
}

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const source = render();
if (values.check) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current !== source) {
    console.error(
      `${target} is stale: run \`pnpm --filter @payment-service/mock generate\` and commit it`,
    );
    process.exit(1);
  }
} else {
  writeFileSync(target, source);
}
