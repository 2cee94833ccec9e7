// The licence notices of the packages an esbuild bundle holds: one file beside the bundle, one section per package.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package directory of a bundled input path (relative to `root`), or undefined for our own files. */
function packageDirOf(root, input) {
  const marker = 'node_modules/';
  const at = input.lastIndexOf(marker);
  if (at === -1) return undefined;
  const rest = input.slice(at + marker.length).split('/');
  const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  return join(root, input.slice(0, at + marker.length), name);
}

/**
 * Writes `outfile`: under `heading`, each package the bundle's metafile names (name, version,
 * licence and its LICENSE file's text), sorted by name; throws for a bundled package that ships
 * no LICENSE file.
 *
 * @example
 * writeBundleLicenses(result.metafile, root, 'dist/cli-bundle.LICENSES.txt', 'dist/cli-bundle.js bundles:');
 */
export function writeBundleLicenses(metafile, root, outfile, heading) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const dir = packageDirOf(root, input);
    if (dir === undefined || packages.has(dir)) continue;
    packages.set(dir, JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
  }
  const sections = [];
  for (const [dir, manifest] of [...packages].sort((a, b) => a[1].name.localeCompare(b[1].name))) {
    const licenseFile = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license']
      .map((name) => join(dir, name))
      .find((path) => existsSync(path));
    if (licenseFile === undefined) {
      throw new Error(`${manifest.name} is bundled into the CLI but ships no LICENSE file`);
    }
    sections.push(
      `${manifest.name} ${manifest.version} (${manifest.license})\n\n${readFileSync(licenseFile, 'utf8').trim()}\n`,
    );
  }
  writeFileSync(join(root, outfile), `${heading}\n\n${sections.join('\n---\n\n')}`);
}
