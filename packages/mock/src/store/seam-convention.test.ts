// Holds the store seam's one calling convention: nothing above or inside the stores asks whether a store answered at once.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The mock's modules (tests and test support left out). */
function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * The one module where a value may be told apart from a promise, and it is not a store's answer:
 * the steps' answer (a Response, or a promise of one) and an operation handler's. A store runs
 * the request's steps on its session when it has read it (`withSession`), so the steps answer at
 * once on the memory store and later on a networked one; nothing asks a store which it did.
 */
const ALLOWED = new Set(['http/steps/state.ts']);

describe('the store seam: one calling convention', () => {
  it('types no call as "a value or a promise" and branches nowhere on which a store answered', () => {
    const found: string[] = [];
    for (const file of sources(root)) {
      const path = relative(root, file);
      if (ALLOWED.has(path)) continue;
      const text = readFileSync(file, 'utf8');
      for (const pattern of [
        /instanceof Promise/,
        /\bAwaitable</,
        /\bMaybePromise</,
        /maybeSync/,
      ]) {
        if (pattern.test(text)) found.push(`${path}: ${pattern.source}`);
      }
    }
    expect(found).toEqual([]);
    // It reads what it checks: the service, the stores and the testing entry.
    const read = sources(root).map((file) => relative(root, file));
    expect(read).toContain('service/account-data.ts');
    expect(read).toContain('store/memory/memory-seam.ts');
    expect(read).toContain('testing/sandbox.ts');
  });
});
