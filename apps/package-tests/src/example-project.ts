// A copy of examples/merchant-app as a merchant has it: the kit's packages come from the tarballs, the rest from npm at the versions in its committed lockfile.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from './pack.js';

/**
 * The lockfile of the example's npm install (its test tools at pinned versions, and the kit's own
 * dependencies), without the kit's packages: those come from the tarballs of the run, whose
 * paths and contents change every time. Written by `npx tsx src/lock-example.ts`.
 */
export const EXAMPLE_LOCKFILE = join(repoRoot, 'apps/package-tests/merchant-app.package-lock.json');

const KIT = '@payment-service/';

/**
 * Copies examples/merchant-app into `directory` without its installs and workspace files, its
 * manifest without the kit's packages (`npm install <tarballs>` adds them), and with the
 * committed lockfile beside it unless `withLockfile` is false.
 *
 * @example
 * await copyExample(temporaryDirectory('payment-service-example-'));
 */
export async function copyExample(directory: string, withLockfile = true): Promise<void> {
  await cp(join(repoRoot, 'examples/merchant-app'), directory, {
    recursive: true,
    filter: (source) => !source.includes('node_modules') && !source.endsWith('.tsbuildinfo'),
  });
  const manifestPath = join(directory, 'package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
  for (const field of ['dependencies', 'devDependencies']) {
    for (const name of Object.keys(manifest[field])) {
      if (name.startsWith(KIT)) delete manifest[field][name];
    }
  }
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  if (withLockfile) await cp(EXAMPLE_LOCKFILE, join(directory, 'package-lock.json'));
}

/** The part of an npm lockfile read here: its entries by install path (`''` is the project). */
export interface Lockfile {
  packages: Record<string, Record<string, unknown>>;
  [field: string]: unknown;
}

/**
 * A lockfile npm wrote for the example's install of the tarballs, with the kit's packages taken
 * out (the entries under node_modules/@payment-service/ and the root's file: dependencies).
 *
 * @example
 * const committed = lockWithoutKit(JSON.parse(await readFile('package-lock.json', 'utf8')));
 */
export function lockWithoutKit(lock: Lockfile): Lockfile {
  const packages = Object.fromEntries(
    Object.entries(lock.packages).filter(([path]) => !path.startsWith(`node_modules/${KIT}`)),
  );
  const root = { ...packages[''] };
  root.dependencies = Object.fromEntries(
    Object.entries((root.dependencies ?? {}) as Record<string, string>).filter(
      ([name]) => !name.startsWith(KIT),
    ),
  );
  return { ...lock, packages: { ...packages, '': root } };
}

/** Where npm's registry serves a package's tarball: `<registry>/<name>/-/<name without scope>-<version>.tgz`. */
const NPM_REGISTRY = 'https://registry.npmjs.org';

/**
 * The lockfile with each registry package's `resolved` (its tarball's URL on npm's registry)
 * where npm left it out (`omit-lockfile-registry-resolved`, set in some users' npm config):
 * without it, every install of the example read each of some 400 packages' registry documents
 * to find the tarball (21.2 -> 11.8 CPU-s per install, the same tree). A wrong URL fails the
 * install (npm checks each tarball's `integrity`), it never installs other bytes.
 *
 * @example
 * const committed = withResolved(lockWithoutKit(lock));
 */
export function withResolved(lock: Lockfile): Lockfile {
  const packages = Object.fromEntries(
    Object.entries(lock.packages).map(([path, entry]) => {
      if (path === '' || entry.resolved !== undefined || entry.link === true) return [path, entry];
      // The real name: an alias's entry names it; otherwise the path after its last node_modules/.
      const name = String(entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 13));
      const file = `${name.slice(name.lastIndexOf('/') + 1)}-${String(entry.version)}.tgz`;
      return [path, { ...entry, resolved: `${NPM_REGISTRY}/${name}/-/${file}` }];
    }),
  );
  return { ...lock, packages };
}
