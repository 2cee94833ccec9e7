// Stoplight Prism 5.14, the peer mock: installed on demand into apps/bench/.cache (not a workspace dependency).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR } from './paths.js';

/** The Prism release measured: 5.14 is the last major that runs on Node 20. */
export const PRISM_VERSION = '5.14.2';

const prismDir = join(CACHE_DIR, 'prism');
const prismPackage = join(prismDir, 'node_modules/@stoplight/prism-cli');

/** Prism's CLI entry and version, when installed. */
export interface PrismInstall {
  entry: string;
  version: string;
}

/**
 * Finds Prism in the cache, installing it with npm first when `install` is true (about 90 MB,
 * 20–30 s once). Returns undefined when it is absent and not installed.
 *
 * @example
 * const prism = ensurePrism(true);
 * prism?.entry; // …/.cache/prism/node_modules/@stoplight/prism-cli/dist/index.js
 */
export function ensurePrism(install: boolean): PrismInstall | undefined {
  const found = readInstall();
  if (found !== undefined || !install) return found;
  mkdirSync(prismDir, { recursive: true });
  process.stderr.write(
    `bench: installing @stoplight/prism-cli@${PRISM_VERSION} into ${prismDir}\n`,
  );
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      prismDir,
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `@stoplight/prism-cli@${PRISM_VERSION}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return readInstall();
}

function readInstall(): PrismInstall | undefined {
  const manifest = join(prismPackage, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const { version, bin } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    version: string;
    bin: { prism: string };
  };
  return { entry: join(prismPackage, bin.prism), version };
}
