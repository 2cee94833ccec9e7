// Conformance: the manifest itself — its flags are of the known kinds, and every safety test it lists still exists where it says.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SuiteCommon } from './common.js';

/** The mock's src/ folder. */
const SOURCE = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every test file under `folder`. */
function testFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(path));
    else if (entry.name.endsWith('.test.ts')) found.push(path);
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
    it('says durable exactly when the factory can open a store again, and shared only then', () => {
      expect(factory.reopen !== undefined).toBe(manifest.durable);
      expect(manifest.sharing === 'none').toBe(!manifest.durable);
    });

    it('lists safety tests that exist: each title in a test file of that name under src/', () => {
      expect(manifest.safetyTests.length).toBeGreaterThan(0);
      const files = testFiles(SOURCE).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
      for (const { file, title, concern } of manifest.safetyTests) {
        // Found by title: a test moved or renamed is named here with where it is now.
        const holders = files
          .filter(({ text }) => text.includes(title))
          .map(({ path }) => basename(path));
        expect(holders, `${concern}: "${title}"`).toContain(file);
      }
    });
  });
}
