// Conformance: the manifest itself — its flags are of the known kinds, and every safety test it lists still exists where it says.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SuiteCommon } from './common.js';

/** The mock's src/ folder. */
const SOURCE = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every file under `folder` named `name`. */
function findFiles(folder: string, name: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...findFiles(path, name));
    else if (entry.name === name) found.push(path);
  }
  return found;
}

/**
 * Checks the store's manifest.
 *
 * @example
 * manifestTests({ factory: memoryStores(), manifest: MEMORY_MANIFEST });
 */
export function manifestTests(common: SuiteCommon): void {
  const { manifest, factory } = common;
  describe('the manifest', () => {
    it('says durable exactly when the factory can open a store again', () => {
      expect(factory.reopen !== undefined).toBe(manifest.durable);
    });

    it('lists safety tests that exist, each once under src/, holding the title it names', () => {
      expect(manifest.safetyTests.length).toBeGreaterThan(0);
      for (const { file, title, concern } of manifest.safetyTests) {
        const paths = findFiles(SOURCE, file);
        expect(paths, `${concern}: ${file}`).toHaveLength(1);
        const text = readFileSync(paths[0] as string, 'utf8');
        expect(text.includes(title), `${file} holds "${title}"`).toBe(true);
      }
    });
  });
}
