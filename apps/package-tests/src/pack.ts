// Packs the publishable packages the way a release does (`pnpm -r pack`, which rewrites `workspace:` ranges).
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
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
 * Packs every published package into `destination` with one `pnpm -r pack` (a release publishes
 * them with one `pnpm -r publish`) and returns each tarball's path. One pnpm process for the four:
 * each of four `pnpm pack` processes started pnpm again (9.7 CPU-s for the four, 5.6 in one).
 *
 * @example
 * const tarballs = await packPublished('/tmp/tarballs'); // { sdk: '/tmp/tarballs/payment-service-sdk-0.1.0.tgz', … }
 */
export async function packPublished(
  destination: string,
): Promise<Record<PublishedPackage, string>> {
  const filters = PUBLISHED.flatMap((name) => ['--filter', `./packages/${name}`]);
  await execFileAsync(
    process.execPath,
    [pnpmCli, '--recursive', ...filters, 'pack', '--pack-destination', destination],
    { cwd: repoRoot, env: { ...process.env, PATH: toolPath() }, maxBuffer: 16 * 1024 * 1024 },
  );
  const created = await readdir(destination);
  return Object.fromEntries(
    PUBLISHED.map((name) => {
      const { name: packageName, version } = JSON.parse(
        readFileSync(join(repoRoot, 'packages', name, 'package.json'), 'utf8'),
      );
      // pnpm's (and npm's) tarball name: the scope's @ dropped and its / made a -.
      const file = `${packageName.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
      if (!created.includes(file))
        throw new Error(`pnpm -r pack made ${created.join(', ') || 'nothing'}, not ${file}`);
      return [name, join(destination, file)];
    }),
  ) as Record<PublishedPackage, string>;
}

/** What a tarball's `package/package.json` declares. */
export interface TarballManifest {
  name: string;
  version: string;
  exports: Record<string, unknown>;
  peerDependencies?: Record<string, string>;
  [field: string]: unknown;
}

/** Manifests read so far, by tarball path (a run's tarballs never change once packed). */
const manifests = new Map<string, string>();

/**
 * The manifest a tarball ships (`package/package.json`), read from the tarball once per path (a
 * fresh object each call).
 *
 * @example
 * manifestOf(sdkTarball).exports; // { '.': …, './package.json': … }
 */
export function manifestOf(tarball: string): TarballManifest {
  let text = manifests.get(tarball);
  if (text === undefined) {
    text = execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
    manifests.set(tarball, text);
  }
  return JSON.parse(text);
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
