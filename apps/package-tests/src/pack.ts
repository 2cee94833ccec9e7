// Packs the publishable packages the way a release does (`pnpm pack`, which rewrites `workspace:` ranges).
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rename, rmdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

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
 * Packs `packages/<name>` into `destination` with pnpm and returns the tarball's path. Each pack
 * writes into a staging directory of its own, so the four packages are packed side by side (one
 * after another, pnpm's start-up and the tarballs' gzip took a minute of the suite's wall on a
 * loaded machine).
 *
 * @example
 * const sdkTarball = await packPackage('sdk', '/tmp/tarballs'); // '/tmp/tarballs/payment-service-sdk-0.1.0.tgz'
 */
export async function packPackage(name: PublishedPackage, destination: string): Promise<string> {
  const staging = await mkdtemp(join(destination, `.pack-${name}-`));
  await execFileAsync(process.execPath, [pnpmCli, 'pack', '--pack-destination', staging], {
    cwd: join(repoRoot, 'packages', name),
    env: { ...process.env, PATH: toolPath() },
  });
  const created = await readdir(staging);
  if (created.length !== 1)
    throw new Error(`pnpm pack of ${name} made ${created.join(', ') || 'nothing'}`);
  const tarball = join(destination, created[0] as string);
  await rename(join(staging, created[0] as string), tarball);
  await rmdir(staging);
  return tarball;
}

/**
 * The manifest a tarball ships (`package/package.json`).
 *
 * @example
 * manifestOf(sdkTarball).exports; // { '.': …, './package.json': … }
 */
export function manifestOf(tarball: string): {
  name: string;
  version: string;
  exports: Record<string, unknown>;
  peerDependencies?: Record<string, string>;
  [field: string]: unknown;
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
