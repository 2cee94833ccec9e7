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

/** Standalone validators of one document's request bodies (and `extra` schemas), as an ES module's statements. */
function compile(document, exportName, extra) {
  // The options the messages rely on: every error (allErrors), with its schema (verbose).
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    verbose: true,
    validateSchema: false,
    code: {
      source: true,
      esm: true,
      // Formats come from ajv-formats' table, imported once at the top of the module.
      formats: _`__formats`,
    },
  });
  addFormats(ajv);
  const id = `urn:payment-service:${exportName}`;
  ajv.addSchema({ $id: id, components: document.components });
  const names = [...requestBodySchemas(document), ...extra];
  const refs = Object.fromEntries(names.map((name) => [name, `${id}#/components/schemas/${name}`]));
  const code = standaloneCode(ajv, refs);
  return { names, code };
}

function render() {
  const parts = [
    // `Payment` checks the testing entry's payment fixtures and restored snapshots.
    { document: openapiDocument, exportName: 'openapiRequestValidators', extra: ['Payment'] },
    { document: sandboxDocument, exportName: 'sandboxRequestValidators', extra: [] },
  ].map(({ document, exportName, extra }) => ({
    exportName,
    ...compile(document, exportName, extra),
  }));
  const runtime = new Set();
  const modules = parts.map(({ exportName, names, code }) => {
    // Each document's module becomes a function scope, so the two share no names; Ajv's
    // run-time helpers (string length in code points, deep equality) are imported once.
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
    const type = names.map((name) => `'${name}'`).join(' | ');
    return `/** The request-body validators of the ${exportName.replace('RequestValidators', '')} document. */
export const ${exportName}: Readonly<Record<${type}, CompiledValidator>> = (() => {
  const exported: Record<string, unknown> = {};
  ${body}
  return exported;
})() as never;`;
  });
  const helpers = [...runtime].sort();
  return `// @ts-nocheck: Ajv's standalone code, compiled from the spec by scripts/generate-validators.mjs.
// Generated: do not edit. \`pnpm --filter @payment-service/mock generate\` rewrites it.
${helpers
  .map((helper) => `import ${helper}Module from 'ajv/dist/runtime/${helper}.js';`)
  .join('\n')}
import { fullFormats as __formats } from 'ajv-formats/dist/formats.js';
import type { CompiledValidator } from '../validation.js';

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
