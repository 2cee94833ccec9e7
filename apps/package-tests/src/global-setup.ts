// Packs every published package once for the whole run and hands the tarballs' paths to the tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PUBLISHED, type PublishedPackage, packPackage } from './pack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    tarballs: Record<PublishedPackage, string>;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const directory = mkdtempSync(join(tmpdir(), 'payment-service-tarballs-'));
  const tarballs = Object.fromEntries(
    await Promise.all(PUBLISHED.map(async (name) => [name, await packPackage(name, directory)])),
  ) as Record<PublishedPackage, string>;
  project.provide('tarballs', tarballs);
  return () => rmSync(directory, { recursive: true, force: true });
}
