// A registry on 127.0.0.1 that serves the run's packed tarballs to npm by name, as a release is installed (`npm install @payment-service/sdk`): each package's metadata is its tarball's own package.json.
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { manifestOf, type PublishedPackage } from './pack.js';

/** The run's registry: its URL (for `--@payment-service:registry=`) and how to stop it. */
export interface TarballRegistry {
  url: string;
  close(): Promise<void>;
}

/** The scope every published package is under: only its names are asked of this registry. */
export const KIT_SCOPE = '@payment-service';

/**
 * Serves each tarball under its package's name: the package's document (one version, the
 * tarball's manifest with the tarball's URL and sha512 integrity, as `npm publish` records it)
 * and the tarball's bytes. Every URL is under a path made for this run, so npm's cache, which
 * keeps documents and tarballs by URL, never answers one run with another's.
 *
 * (Given the paths of the tarballs instead, npm unpacks each into its cache's temporary directory
 * twice to read its manifest before it installs it: some 4,900 files written and removed per
 * install, about half of an install's CPU.)
 *
 * @example
 * const registry = await startTarballRegistry(tarballs);
 * await runIn(dir, 'npm', ['install', `--${KIT_SCOPE}:registry=${registry.url}`, '@payment-service/sdk@0.1.0']);
 * await registry.close();
 */
export async function startTarballRegistry(
  tarballs: Record<PublishedPackage, string>,
): Promise<TarballRegistry> {
  const prefix = `/${randomUUID()}/`;
  const documents = new Map<string, string>();
  const files = new Map<string, Buffer>();
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://registry').pathname);
    const document = documents.get(path);
    const file = files.get(path);
    if (request.method === 'GET' && document !== undefined) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(document);
    } else if (request.method === 'GET' && file !== undefined) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file);
    } else {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const tarball of Object.values(tarballs)) {
    const bytes = await readFile(tarball);
    const manifest = manifestOf(tarball);
    const tarballPath = `${prefix}-/${basename(tarball)}`;
    files.set(tarballPath, bytes);
    const version = {
      ...manifest,
      _id: `${manifest.name}@${manifest.version}`,
      dist: {
        tarball: `${origin}${tarballPath}`,
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
      },
    };
    documents.set(
      `${prefix}${manifest.name}`,
      JSON.stringify({
        name: manifest.name,
        'dist-tags': { latest: manifest.version },
        versions: { [manifest.version]: version },
      }),
    );
  }
  return {
    url: `${origin}${prefix}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The arguments of `npm install` that install every tarball of the run by name and exact version
 * from `registry` (the scope's packages only; everything else still comes from npm's registry).
 *
 * @example
 * await runIn(dir, 'npm', [...NPM_INSTALL, ...kitInstallArgs(tarballs, inject('registry'))]);
 */
export function kitInstallArgs(
  tarballs: Record<PublishedPackage, string>,
  registry: string,
): string[] {
  return [
    `--${KIT_SCOPE}:registry=${registry}`,
    ...Object.values(tarballs).map((tarball) => {
      const { name, version } = manifestOf(tarball);
      return `${name}@${version}`;
    }),
  ];
}
