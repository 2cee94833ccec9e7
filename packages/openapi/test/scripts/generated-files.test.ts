// Tests the generator on small specs in a temporary directory: rendering, stale detection, bundling.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import {
  findStaleFiles,
  renderGeneratedFiles,
  writeStaleFiles,
} from '../../scripts/generated-files.mjs';
import { findExternalRefs } from '../../scripts/load-spec.mjs';

const specText = `openapi: 3.1.0
info: {title: Test, version: 1.0.0}
paths:
  /v1/things:
    get:
      operationId: listThings
      responses:
        "2XX":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Thing"}
components:
  schemas:
    Thing:
      type: object
      required: [id]
      properties:
        id: {type: string}
        capture: {type: boolean, default: true}
    ErrorCode:
      type: string
      enum: [not_found]
      x-error-codes:
        not_found: {status: 404, title: Not found, meaning: No such thing.}
    PaymentMethod:
      type: object
      properties:
        token:
          type: string
          x-test-tokens:
            - {token: tok_test_success, description: SUCCEEDED}
`;

let directory: string;
let paths: { openapiSpec: string; sandboxSpec: string; outDirectory: string };

beforeEach(async () => {
  directory = temporaryDirectory('openapi-generate-');
  paths = {
    openapiSpec: join(directory, 'openapi.yaml'),
    sandboxSpec: join(directory, 'sandbox.yaml'),
    outDirectory: join(directory, 'generated'),
  };
  await writeFile(paths.openapiSpec, specText);
  await writeFile(paths.sandboxSpec, specText.replaceAll('/v1/things', '/_sandbox/things'));
});

describe('renderGeneratedFiles', () => {
  it('renders types and a document module for each spec, each with the do-not-edit header', async () => {
    const files = await renderGeneratedFiles(paths);
    const names = files.map((file) => file.path.slice(paths.outDirectory.length + 1));
    expect(names).toEqual([
      'openapi.ts',
      'openapi-document.ts',
      'vocabulary.ts',
      'sandbox.ts',
      'sandbox-document.ts',
    ]);
    for (const file of files) expect(file.content).toMatch(/^\/\/ generated from .* do not edit/);
    const [types, document] = files.map((file) => file.content);
    expect(types).toContain('export interface paths');
    expect(types).toContain('export interface components');
    expect(types).toContain('export type webhooks');
    expect(types).toContain('export interface operations');
    expect(types).toContain('capture?: boolean;');
    expect(document).toContain('export const openapiDocument = {');
    expect(document).toContain('"openapi": "3.1.0"');
    expect(document?.trimEnd().endsWith('} as const;')).toBe(true);
  });
});

describe('findStaleFiles and writeStaleFiles', () => {
  it('finds missing and changed files, and writes only those', async () => {
    const files = await renderGeneratedFiles(paths);
    expect(await findStaleFiles(files)).toHaveLength(5);
    expect(await writeStaleFiles(files)).toHaveLength(5);
    expect(await findStaleFiles(files)).toEqual([]);

    await writeFile(paths.openapiSpec, specText.replace('title: Test', 'title: Changed'));
    const changed = await findStaleFiles(await renderGeneratedFiles(paths));
    expect(changed.map((file) => file.path)).toEqual([
      join(paths.outDirectory, 'openapi-document.ts'),
    ]);
  });
});

describe('external references', () => {
  it('bundles a spec whose schemas live in another file into one document', async () => {
    await writeFile(
      join(directory, 'thing.yaml'),
      'type: object\nproperties:\n  id: {type: string}\n',
    );
    await writeFile(
      paths.openapiSpec,
      specText.replace('"#/components/schemas/Thing"', './thing.yaml'),
    );
    const files = await renderGeneratedFiles(paths);
    const document = files[1]?.content ?? '';
    expect(findExternalRefs({ $ref: './thing.yaml' })).toEqual(['./thing.yaml']);
    expect(document).not.toContain('thing.yaml');
    expect(files[0]?.content).toContain('id?: string;');
  });
});
