// Packs every published package once for the whole run, serves the tarballs to npm from a registry of the run's own, and hands both to the tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type PublishedPackage, packPublished } from './pack.js';
import { startTarballRegistry } from './registry.js';

declare module 'vitest' {
  export interface ProvidedContext {
    tarballs: Record<PublishedPackage, string>;
    /** The registry serving the tarballs by name (`--@payment-service:registry=`). */
    registry: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const directory = mkdtempSync(join(tmpdir(), 'payment-service-tarballs-'));
  const tarballs = await packPublished(directory);
  const registry = await startTarballRegistry(tarballs);
  project.provide('tarballs', tarballs);
  project.provide('registry', registry.url);
  return async () => {
    await registry.close();
    rmSync(directory, { recursive: true, force: true });
  };
}
