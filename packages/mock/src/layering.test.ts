// Enforces the mock's one-way layering: http → service → webhooks → domain → store → shared.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = dirname(fileURLToPath(import.meta.url));

/** Lower numbers sit higher; a module may import only its own layer or a lower one. */
const LAYERS: [prefix: string, layer: number, name: string][] = [
  ['http/', 1, 'http'],
  ['service/', 2, 'account service'],
  ['webhooks/', 3, 'webhook delivery'],
  ['domain/', 4, 'domain rules'],
  ['store/', 5, 'store'],
  ['shared/', 6, 'shared'],
  ['generated/', 6, 'shared'],
];

function layerOf(path: string): { layer: number; name: string } {
  for (const [prefix, layer, name] of LAYERS) {
    if (path === prefix || path.startsWith(prefix)) return { layer, name };
  }
  return { layer: 0, name: 'entry' }; // app/, cli/, server/, console/, testing/ and the package entries
}

const TEST_FOLDERS = new Set(['test-support', 'conformance']);

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    // Test-only folders (test support, the store conformance suite) drive the whole server.
    if (entry.isDirectory()) return TEST_FOLDERS.has(entry.name) ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.{1,2}\/[^']+)'/g;

describe('module layering', () => {
  it('has no import from a lower layer to a higher one', () => {
    const violations: string[] = [];
    for (const file of sources(root)) {
      const from = relative(root, file);
      const fromLayer = layerOf(from);
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = relative(root, resolve(dirname(file), String(match[1]))).replace(
          /\.js$/,
          '.ts',
        );
        const toLayer = layerOf(target);
        if (toLayer.layer < fromLayer.layer) {
          violations.push(`${from} (${fromLayer.name}) imports ${target} (${toLayer.name})`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps the service, webhook delivery, domain and http layers on the store seam', () => {
    // Above the store, state is reached through store/store.ts; the records every store shares
    // (payments, webhooks, recorded requests) and the limits are plain data. The stores' own
    // modules (memory/, data-dir/, redis/) stay behind it.
    const seam = /^store\/(store|records|webhook-records|request-records|limits)\.ts$/;
    const above = /^(service|webhooks|domain|http)\//;
    const violations: string[] = [];
    for (const file of sources(root)) {
      const from = relative(root, file);
      if (!above.test(from)) continue;
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = relative(root, resolve(dirname(file), String(match[1]))).replace(
          /\.js$/,
          '.ts',
        );
        if (target.startsWith('store/') && !seam.test(target))
          violations.push(`${from} imports ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps the three stores apart: each imports only the seam and what every store shares', () => {
    // store/ holds the seam (store.ts) and what every store shares (records, limits, byte sizes,
    // record checks, the session they hand out) as files; each store is a folder. A store imports
    // its own folder and those files, never another store, except that the data directory wraps
    // the memory store. The shared files import no store.
    const STORES = ['memory', 'data-dir', 'redis'];
    const MAY_WRAP: Record<string, string[]> = { 'data-dir': ['memory'] };
    const folderOf = (path: string) => /^store\/([^/]+)\//.exec(path)?.[1];
    const violations: string[] = [];
    const seen: string[] = [];
    for (const file of sources(root)) {
      const from = relative(root, file);
      if (!from.startsWith('store/')) continue;
      const fromFolder = folderOf(from);
      if (fromFolder !== undefined && !STORES.includes(fromFolder)) continue; // the conformance suite
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = relative(root, resolve(dirname(file), String(match[1]))).replace(
          /\.js$/,
          '.ts',
        );
        const toFolder = folderOf(target);
        if (!target.startsWith('store/') || toFolder === undefined || toFolder === fromFolder) {
          continue;
        }
        seen.push(`${from} imports ${target}`);
        const allowed = fromFolder !== undefined && (MAY_WRAP[fromFolder] ?? []).includes(toFolder);
        if (!allowed) violations.push(`${from} imports ${target}`);
      }
    }
    expect(violations).toEqual([]);
    // It reads the imports it checks: the data directory's store wraps the memory store.
    expect(seen).toContain(
      'store/data-dir/journaled-store.ts imports store/memory/memory-store.ts',
    );
  });

  it('sees the imports it checks', () => {
    const pipeline = readFileSync(join(root, 'http/pipeline.ts'), 'utf8');
    expect([...pipeline.matchAll(IMPORT)].length).toBeGreaterThan(3);
  });
});
