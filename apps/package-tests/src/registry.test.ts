// The run's registry serves each packed tarball by name: its manifest as the package's one version, with the tarball's own bytes and sha512; nothing else.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, inject, it } from 'vitest';
import { manifestOf, PUBLISHED } from './pack.js';
import { KIT_SCOPE, kitInstallArgs } from './registry.js';

const tarballs = inject('tarballs');
const registry = inject('registry');

describe("the run's registry of the tarballs", () => {
  it.each(PUBLISHED)(
    'serves %s: the tarball’s manifest as its one version, and the tarball’s bytes at dist.tarball',
    async (name) => {
      const manifest = manifestOf(tarballs[name]);
      const response = await fetch(`${registry}${manifest.name.replace('/', '%2f')}`);
      expect(response.status).toBe(200);
      const document = await response.json();
      expect(document['dist-tags']).toEqual({ latest: manifest.version });
      expect(Object.keys(document.versions)).toEqual([manifest.version]);
      const { dist, _id, ...published } = document.versions[manifest.version];
      expect(published).toEqual(manifest);
      expect(_id).toBe(`${manifest.name}@${manifest.version}`);
      const bytes = await readFile(tarballs[name]);
      const served = Buffer.from(await (await fetch(dist.tarball)).arrayBuffer());
      expect(served.equals(bytes)).toBe(true);
      expect(dist.integrity).toBe(`sha512-${createHash('sha512').update(bytes).digest('base64')}`);
    },
  );

  it('answers 404 for a name it does not hold and for a path outside the run', async () => {
    expect((await fetch(`${registry}left-pad`)).status).toBe(404);
    expect((await fetch(`${registry}@payment-service%2fnot-published`)).status).toBe(404);
    const outside = new URL(registry);
    outside.pathname = '/@payment-service%2fsdk';
    expect((await fetch(outside)).status).toBe(404);
  });

  it('has npm install every tarball by exact version from it, and only the kit’s scope', () => {
    const args = kitInstallArgs(tarballs, registry);
    expect(args[0]).toBe(`--${KIT_SCOPE}:registry=${registry}`);
    expect(args.slice(1).sort()).toEqual(
      PUBLISHED.map((name) => {
        const { name: packageName, version } = manifestOf(tarballs[name]);
        return `${packageName}@${version}`;
      }).sort(),
    );
  });
});
