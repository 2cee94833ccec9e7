// Loads a spec file (YAML or JSON) at run time, so a replay can check recorded traffic against another version of the contract; knows each element's line in that file.
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { ConfigurationError } from '../errors.js';
import { nestsDeeperThan } from '../runner/json-depth.js';
import type { ResolvedElement } from '../spec/elements.js';
import type { SpecDocument } from '../spec/spec-index.js';
import { cleanTargetText } from '../untrusted-text.js';

/** A spec file read at run time. */
export interface LoadedSpec {
  document: SpecDocument;
  /** The file as given on the command line. */
  file: string;
  /**
   * The file and line where an element starts (or its nearest enclosing element that has one);
   * the file as `reportUri` gives it.
   */
  locate(element: ResolvedElement): Pick<ResolvedElement, 'file' | 'line'>;
}

/**
 * How reports name a spec file: relative to `cwd` with forward slashes when it lies under it (so
 * GitHub code scanning places results in the repository), else an absolute `file:` URI.
 *
 * @example
 * reportUri('/repo/spec/next.yaml', '/repo'); // 'spec/next.yaml'
 * reportUri('/tmp/next.yaml', '/repo'); // 'file:///tmp/next.yaml'
 */
export function reportUri(file: string, cwd = process.cwd()): string {
  const absolute = resolve(cwd, file);
  const inside = relative(cwd, absolute);
  if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside))
    return inside.split(sep).join('/');
  return pathToFileURL(absolute).href;
}

/** The largest spec file read, in bytes (ours is under 100 kB). */
export const MAX_SPEC_BYTES = 16 * 1024 * 1024;

const fail = (file: string, problem: string) =>
  new ConfigurationError(`--spec ${cleanTargetText(file, 200)}: ${problem}`);

/**
 * Reads an OpenAPI document from a YAML or JSON file; a file that is missing, too large, not YAML,
 * or not an OpenAPI 3 document with `paths` is a ConfigurationError (exit 2) saying which. Reports
 * name the file from `cwd` (see `reportUri`).
 *
 * @example
 * const spec = await loadSpecFile('spec/openapi.next.yaml');
 * createTrafficChecker({ documents: { openapi: spec.document, sandbox: specDocuments.sandbox }, locate: spec.locate });
 */
export async function loadSpecFile(file: string, cwd = process.cwd()): Promise<LoadedSpec> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    throw fail(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (size > MAX_SPEC_BYTES)
    throw fail(file, `is ${size} bytes; a spec file may have at most ${MAX_SPEC_BYTES}`);
  const text = await readFile(file, 'utf8');
  const lineCounter = new LineCounter();
  const parsed = parseDocument(text, { lineCounter, uniqueKeys: false });
  const error = parsed.errors[0];
  if (error) {
    const line = error.linePos?.[0]?.line;
    throw fail(
      file,
      `is not valid YAML or JSON${line ? ` (line ${line})` : ''}: ${cleanTargetText(error.message.split('\n')[0] ?? '', 200)}`,
    );
  }
  let document: unknown;
  try {
    document = parsed.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw fail(file, cleanTargetText((cause as Error).message, 200));
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    throw fail(file, 'is not an OpenAPI document (an object at the top)');
  const record = document as Record<string, unknown>;
  if (typeof record.openapi !== 'string' || !record.openapi.startsWith('3.'))
    throw fail(file, 'field openapi: expected an OpenAPI 3 version string such as "3.1.0"');
  if (record.paths === null || typeof record.paths !== 'object' || Array.isArray(record.paths))
    throw fail(file, 'field paths: expected an object of paths');
  if (nestsDeeperThan(document, 128)) throw fail(file, 'nests deeper than 128 levels');
  const lines = new Map<string, number | undefined>();
  /** The line of a mapping's key (where the element is written), or of a list item. */
  const lineOf = (tokens: string[]): number | undefined => {
    const parent = parsed.getIn(tokens.slice(0, -1), true);
    const last = tokens.at(-1);
    let offset: number | undefined;
    if (isMap(parent)) {
      const pair = parent.items.find(
        (item) => isScalar(item.key) && String(item.key.value) === last,
      );
      offset = isNode(pair?.key) ? pair.key.range?.[0] : undefined;
    } else if (isSeq(parent)) {
      const item = parent.items[Number(last)];
      offset = isNode(item) ? item.range?.[0] : undefined;
    }
    return offset === undefined ? undefined : lineCounter.linePos(offset).line;
  };
  const uri = reportUri(file, cwd);
  return {
    document: document as SpecDocument,
    file,
    locate(element) {
      const tokens = element.pointer
        .split('/')
        .slice(1)
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
      for (let length = tokens.length; length > 0; length--) {
        const key = tokens.slice(0, length).join('\u0000');
        if (!lines.has(key)) lines.set(key, lineOf(tokens.slice(0, length)));
        const line = lines.get(key);
        // A key's value node starts on the key's line or the next: report the value's.
        if (line !== undefined) return { file: uri, line };
      }
      return { file: uri };
    },
  };
}
