// What a fresh `npm install @payment-service/mock` brings: every runtime package accepts the oldest Node the mock supports (no EBADENGINE).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const own = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as Manifest & { peerDependencies?: Record<string, string> };

/** The oldest Node the package supports: the lower bound of its own `engines.node`. */
const OLDEST = /^>=(\d+\.\d+(?:\.\d+)?)$/.exec(own.engines?.node ?? '')?.[1] ?? '';

/** A version as three numbers (`x` and missing parts as 0). */
function parts(version: string): number[] {
  return [0, 1, 2].map((index) => Number.parseInt(version.split('.')[index] ?? '0', 10) || 0);
}

function compare(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let index = 0; index < 3; index++) {
    const difference = (x[index] as number) - (y[index] as number);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Whether `version` satisfies one comparator of an `engines.node` range (the forms packages use). */
function satisfiesComparator(version: string, comparator: string): boolean {
  const match = /^(>=|<=|>|<|\^|~|=)?v?(\d+(?:\.[\dx*]+){0,2})$/.exec(comparator);
  if (match === null) throw new Error(`engines.node comparator "${comparator}" is not understood`);
  const [, operator = '=', bound = ''] = match;
  const order = compare(version, bound);
  const [major] = parts(bound);
  switch (operator) {
    case '>=':
      return order >= 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    case '<':
      return order < 0;
    case '^':
      return order >= 0 && parts(version)[0] === major;
    case '~':
      return order >= 0 && parts(version)[0] === major && parts(version)[1] === parts(bound)[1];
    default:
      return bound
        .split('.')
        .every((part, index) => /[x*]/.test(part) || Number(part) === parts(version)[index]);
  }
}

/**
 * Whether `version` satisfies an `engines.node` range: alternatives separated by `||`, each a
 * list of comparators that must all hold (`>=18 <23`), or a hyphen range.
 *
 * @example
 * satisfies('20.19.0', '>=22'); // false
 */
function satisfies(version: string, range: string): boolean {
  return range.split('||').some((alternative) => {
    const text = alternative.trim();
    if (text === '' || text === '*') return true;
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
    if (hyphen !== null)
      return (
        compare(version, hyphen[1] as string) >= 0 && compare(version, hyphen[2] as string) <= 0
      );
    return text
      .replace(/(>=|<=|>|<|=)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => satisfiesComparator(version, comparator));
  });
}

/** Every package a consumer's install brings for the mock at run time, with its manifest. */
function runtimeTree(): Manifest[] {
  const seen = new Map<string, Manifest>();
  const visit = (fromManifest: string, names: string[]) => {
    const require = createRequire(fromManifest);
    for (const name of names) {
      let path: string;
      try {
        path = require.resolve(`${name}/package.json`);
      } catch {
        path = findManifest(require, name);
      }
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
      const key = `${manifest.name}@${manifest.version}`;
      if (seen.has(key)) continue;
      seen.set(key, manifest);
      visit(path, Object.keys(manifest.dependencies ?? {}));
    }
  };
  const ownManifest = new URL('../package.json', import.meta.url).pathname;
  // npm 7+ installs peer dependencies too (msw is an optional one).
  visit(ownManifest, [...Object.keys(own.dependencies ?? {}), '@payment-service/sdk']);
  return [...seen.values()];
}

/** A package whose `exports` hides its package.json: found beside its entry point. */
function findManifest(require: NodeJS.Require, name: string): string {
  let directory = dirname(require.resolve(name));
  while (directory !== dirname(directory)) {
    try {
      const path = join(directory, 'package.json');
      if ((JSON.parse(readFileSync(path, 'utf8')) as Manifest).name === name) return path;
    } catch {
      // Not here: one level up.
    }
    directory = dirname(directory);
  }
  throw new Error(`no package.json found for ${name}`);
}

describe('the runtime dependencies on the oldest supported Node', () => {
  it('reads engines ranges as npm does', () => {
    expect(satisfies('20.19.0', '>=22')).toBe(false);
    expect(satisfies('20.19.0', '>=18')).toBe(true);
    expect(satisfies('20.19.0', '^18.18.0 || ^20.9.0 || >=21.1.0')).toBe(true);
    expect(satisfies('20.19.0', '>= 16.9.0')).toBe(true);
    expect(satisfies('20.19.0', '20.x')).toBe(true);
  });

  it(`installs with no EBADENGINE on Node ${OLDEST}`, () => {
    expect(OLDEST).toMatch(/^\d+\.\d+/);
    const tree = runtimeTree();
    expect(tree.map((manifest) => manifest.name)).toContain('light-my-request');
    // Before: light-my-request 6.8 brought cookie 2, whose engines say node >=22.
    const refusing = tree
      .filter((manifest) => manifest.engines?.node !== undefined)
      .filter((manifest) => !satisfies(OLDEST, manifest.engines?.node as string))
      .map((manifest) => `${manifest.name}@${manifest.version} (node ${manifest.engines?.node})`);
    expect(refusing).toEqual([]);
  });
});
