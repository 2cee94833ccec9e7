// The example's committed lockfile: without the kit's packages, and naming each package's tarball so an install reads no registry documents.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EXAMPLE_LOCKFILE,
  type Lockfile,
  lockWithoutKit,
  withResolved,
} from './example-project.js';

describe("the example app's committed lockfile", () => {
  const lock = JSON.parse(readFileSync(EXAMPLE_LOCKFILE, 'utf8')) as Lockfile;

  it("holds no kit package and names every other package's tarball and integrity", () => {
    const entries = Object.entries(lock.packages).filter(([path]) => path !== '');
    expect(entries.length).toBeGreaterThan(100);
    expect(entries.filter(([path]) => path.includes('@payment-service/'))).toEqual([]);
    const unresolved = entries.filter(([, entry]) => typeof entry.resolved !== 'string');
    expect(unresolved.map(([path]) => path)).toEqual([]);
    const withoutIntegrity = entries.filter(([, entry]) => typeof entry.integrity !== 'string');
    expect(withoutIntegrity.map(([path]) => path)).toEqual([]);
  });

  it('is what lock-example.ts writes: taking the kit out and adding tarball URLs changes nothing', () => {
    expect(withResolved(lockWithoutKit(lock))).toEqual(lock);
  });
});

describe('withResolved', () => {
  it("adds npm's tarball URL where it is missing: unscoped, scoped, nested and aliased", () => {
    const lock = {
      packages: {
        '': { name: 'shop', dependencies: { a: '^1.0.0' } },
        'node_modules/a': { version: '1.2.3', integrity: 'sha512-a' },
        'node_modules/@s/b': { version: '2.0.0', integrity: 'sha512-b' },
        'node_modules/a/node_modules/@s/b': { version: '1.0.0', integrity: 'sha512-c' },
        'node_modules/alias': { name: '@s/real', version: '3.0.0', integrity: 'sha512-d' },
        'node_modules/kept': { version: '1.0.0', resolved: 'https://example.test/kept.tgz' },
        'node_modules/linked': { link: true, resolved: 'packages/linked' },
      },
    };
    const resolved = Object.fromEntries(
      Object.entries(withResolved(lock).packages).map(([path, entry]) => [path, entry.resolved]),
    );
    expect(resolved).toEqual({
      '': undefined,
      'node_modules/a': 'https://registry.npmjs.org/a/-/a-1.2.3.tgz',
      'node_modules/@s/b': 'https://registry.npmjs.org/@s/b/-/b-2.0.0.tgz',
      'node_modules/a/node_modules/@s/b': 'https://registry.npmjs.org/@s/b/-/b-1.0.0.tgz',
      'node_modules/alias': 'https://registry.npmjs.org/@s/real/-/real-3.0.0.tgz',
      'node_modules/kept': 'https://example.test/kept.tgz',
      'node_modules/linked': 'packages/linked',
    });
  });
});
