// Where things are: the repository root, the mock's CLI, the spec, the floor entry, the cache.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** apps/bench, whether running from src (vitest) or dist (node). */
export const BENCH_DIR = resolve(here, '..');
/** The repository root. */
export const REPO_ROOT = resolve(BENCH_DIR, '../..');
/** Our OpenAPI spec, which Prism mocks. */
export const SPEC_PATH = join(REPO_ROOT, 'spec/openapi.yaml');
/** The mock's package directory, through the workspace link. */
export const MOCK_DIR = dirname(require.resolve('@payment-service/mock/package.json'));
/** The mock's CLI, as published (`payment-service-mock`): the bin launcher. */
export const MOCK_CLI = join(MOCK_DIR, 'bin/payment-service-mock.js');
/** The contract CLI, as published (`payment-service-contract`), through the workspace link. */
export const CONTRACT_CLI = join(
  dirname(require.resolve('@payment-service/contract/package.json')),
  'bin/payment-service-contract.js',
);
/**
 * The node flags of the launcher's shebang (`#!/usr/bin/env -S node …`), which a shell or npm's
 * bin shim passes to node: the harness starts the CLI the way a user's `npx` does.
 */
export const MOCK_CLI_NODE_FLAGS = shebangNodeFlags(readFileSync(MOCK_CLI, 'utf8'));

/**
 * The flags after `node` in a script's `#!/usr/bin/env -S node …` line.
 *
 * @example
 * shebangNodeFlags('#!/usr/bin/env -S node --max-old-space-size=384\n'); // ['--max-old-space-size=384']
 */
export function shebangNodeFlags(script: string): string[] {
  const match = /^#!\/usr\/bin\/env(?: -S)? node((?: \S+)*)\s*$/m.exec(script.split('\n')[0] ?? '');
  return match?.[1]?.trim().split(' ').filter(Boolean) ?? [];
}
/** The compiled floor server entry. */
export const FLOOR_MAIN = join(BENCH_DIR, 'dist/floor-main.js');
/** The compiled Hono floor entry. */
export const HONO_FLOOR_MAIN = join(BENCH_DIR, 'dist/hono-floor-main.js');
/** The compiled forwarding floor entry (a bare node:http proxy). */
export const FORWARD_FLOOR_MAIN = join(BENCH_DIR, 'dist/forward-floor-main.js');
/** Tools the harness installs on demand (Prism), ignored by git. */
export const CACHE_DIR = join(BENCH_DIR, '.cache');

/**
 * The version of a package installed in `fromDir`'s node_modules; undefined when absent.
 *
 * @example
 * packageVersion('hono', MOCK_DIR); // '4.x.y'
 */
export function packageVersion(name: string, fromDir: string): string | undefined {
  try {
    const manifest = readFileSync(join(fromDir, 'node_modules', name, 'package.json'), 'utf8');
    return (JSON.parse(manifest) as { version: string }).version;
  } catch {
    return undefined;
  }
}
