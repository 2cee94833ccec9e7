// Packs the publishable packages the way a release does (`pnpm pack`, which rewrites `workspace:` ranges).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo's root directory. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The packages a release publishes, by directory under packages/. */
export const PUBLISHED = ['openapi', 'sdk', 'mock', 'contract'] as const;
export type PublishedPackage = (typeof PUBLISHED)[number];

const require = createRequire(join(repoRoot, 'package.json'));

/** The pnpm CLI installed at the root (the version in `packageManager`). */
export const pnpmCli = join(dirname(require.resolve('pnpm')), 'bin/pnpm.cjs');

/** PATH with the repository's own binaries first, so spawned tools find pnpm, tsc and tsx. */
export function toolPath(): string {
  return [join(repoRoot, 'node_modules/.bin'), dirname(process.execPath), process.env.PATH].join(
    ':',
  );
}

/**
 * Packs `packages/<name>` into `destination` with pnpm and returns the tarball's path.
 *
 * @example
 * const sdkTarball = packPackage('sdk', '/tmp/tarballs'); // '/tmp/tarballs/payment-service-sdk-0.1.0.tgz'
 */
export function packPackage(name: PublishedPackage, destination: string): string {
  const before = new Set(readdirSync(destination));
  execFileSync(process.execPath, [pnpmCli, 'pack', '--pack-destination', destination], {
    cwd: join(repoRoot, 'packages', name),
    env: { ...process.env, PATH: toolPath() },
    stdio: 'pipe',
  });
  const created = readdirSync(destination).filter((file) => !before.has(file));
  if (created.length !== 1)
    throw new Error(`pnpm pack of ${name} made ${created.join(', ') || 'nothing'}`);
  return join(destination, created[0] as string);
}

/**
 * The manifest a tarball ships (`package/package.json`).
 *
 * @example
 * manifestOf(sdkTarball).exports; // { '.': …, './package.json': … }
 */
export function manifestOf(tarball: string): {
  name: string;
  exports: Record<string, unknown>;
  peerDependencies?: Record<string, string>;
} {
  return JSON.parse(
    execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  );
}

/**
 * The version in `packages/<name>/package.json`: tests read it instead of repeating it.
 *
 * @example
 * packageVersion('sdk'); // '0.1.0'
 */
export function packageVersion(name: PublishedPackage): string {
  return JSON.parse(readFileSync(join(repoRoot, 'packages', name, 'package.json'), 'utf8')).version;
}
