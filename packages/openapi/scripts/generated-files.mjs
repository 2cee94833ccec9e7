// Decides which files the generator writes, renders them in memory, and writes or compares them.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSpecDocument } from './load-spec.mjs';
import { defaultPaths, displayPath, packageDirectory, repositoryRoot } from './paths.mjs';
import { renderDocumentModule, renderTypesModule } from './render.mjs';
import { renderVocabularyModule } from './vocabulary.mjs';

export { defaultPaths, displayPath, packageDirectory, repositoryRoot };

/**
 * @typedef {object} GeneratedFile
 * @property {string} path Absolute path of the file.
 * @property {string} content The text it must hold.
 */

/**
 * Renders every generated file in memory: types and document for the provider's spec and for
 * the sandbox-controls spec.
 *
 * @param {Partial<typeof defaultPaths>} [paths] Overrides of the default spec and output paths.
 * @returns {Promise<GeneratedFile[]>} Five files: `openapi.ts`, `openapi-document.ts`,
 *   `vocabulary.ts` (error codes and test tokens), `sandbox.ts`, `sandbox-document.ts`.
 * @example
 * const files = await renderGeneratedFiles({ openapiSpec: '/tmp/openapi.yaml' });
 */
export async function renderGeneratedFiles(paths = {}) {
  const { openapiSpec, sandboxSpec, outDirectory } = { ...defaultPaths, ...paths };
  const targets = [
    { spec: openapiSpec, name: 'openapi', exportName: 'openapiDocument' },
    { spec: sandboxSpec, name: 'sandbox', exportName: 'sandboxDocument' },
  ];
  /** @type {GeneratedFile[]} */
  const files = [];
  for (const { spec, name, exportName } of targets) {
    const specPath = resolve(spec);
    const label = displayPath(specPath);
    const document = await loadSpecDocument(specPath);
    files.push({
      path: resolve(outDirectory, `${name}.ts`),
      content: await renderTypesModule(pathToFileURL(specPath), label),
    });
    files.push({
      path: resolve(outDirectory, `${name}-document.ts`),
      content: renderDocumentModule(document, exportName, label),
    });
    if (name === 'openapi') {
      files.push({
        path: resolve(outDirectory, 'vocabulary.ts'),
        content: renderVocabularyModule(document, label),
      });
    }
  }
  return files;
}

/**
 * Reads a file, or returns `undefined` when it does not exist.
 *
 * @param {string} path
 * @returns {Promise<string | undefined>}
 */
async function readIfPresent(path) {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Lists the files whose content on disk differs from the rendered content, or that are missing.
 *
 * @param {GeneratedFile[]} files Rendered files.
 * @returns {Promise<GeneratedFile[]>} The stale ones.
 * @example
 * const stale = await findStaleFiles(await renderGeneratedFiles());
 * if (stale.length > 0) process.exitCode = 1;
 */
export async function findStaleFiles(files) {
  /** @type {GeneratedFile[]} */
  const stale = [];
  for (const file of files) {
    if ((await readIfPresent(file.path)) !== file.content) stale.push(file);
  }
  return stale;
}

/**
 * Writes the stale files (and only those, so unchanged files keep their timestamps).
 *
 * @param {GeneratedFile[]} files Rendered files.
 * @returns {Promise<GeneratedFile[]>} The files that were written.
 * @example
 * const written = await writeStaleFiles(await renderGeneratedFiles());
 */
export async function writeStaleFiles(files) {
  const stale = await findStaleFiles(files);
  for (const file of stale) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.content);
  }
  return stale;
}
