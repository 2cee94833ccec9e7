// The mock as it was before its redesign (issue 9), built on demand from git into apps/bench/.cache.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR, REPO_ROOT } from './paths.js';

/** The last commit before the mock's redesign: its CLI is the "no regression" baseline. */
export const BASELINE_MOCK_COMMIT = 'd7ac2fd';

/** The baseline's CLI entry, or why it is not available. */
export type BaselineMock = { ok: true; entry: string } | { ok: false; reason: string };

const baselineDir = join(CACHE_DIR, `mock-${BASELINE_MOCK_COMMIT}`);
const baselineEntry = join(baselineDir, 'packages/mock/dist/cli.js');

/**
 * Finds the pre-redesign mock's built CLI in the cache; when `install` is true and it is absent,
 * extracts that commit from git (`git archive`), installs its workspace with the repository's
 * pnpm (offline first) and builds the mock and its dependencies (about a minute, once).
 *
 * @example
 * const baseline = ensureBaselineMock(true);
 * if (baseline.ok) serverCommand('mock-before', { mockBefore: baseline.entry });
 */
export function ensureBaselineMock(install: boolean): BaselineMock {
  if (existsSync(baselineEntry)) return { ok: true, entry: baselineEntry };
  if (!install)
    return { ok: false, reason: 'not built (smoke mode builds it only with BENCH_BASELINE=1)' };
  try {
    rmSync(baselineDir, { recursive: true, force: true });
    mkdirSync(baselineDir, { recursive: true });
    process.stderr.write(`bench: building the mock at ${BASELINE_MOCK_COMMIT} in ${baselineDir}\n`);
    const archive = join(CACHE_DIR, `mock-${BASELINE_MOCK_COMMIT}.tar`);
    run('git', ['-C', REPO_ROOT, 'archive', '--format=tar', '-o', archive, BASELINE_MOCK_COMMIT]);
    run('tar', ['-xf', archive, '-C', baselineDir]);
    rmSync(archive, { force: true });
    const pnpm = [`-y`, repositoryPnpm()];
    const only = ['--filter', '@payment-service/mock...'];
    run('npx', [...pnpm, 'install', '--frozen-lockfile', '--prefer-offline', ...only], baselineDir);
    run('npx', [...pnpm, '-r', ...only, 'run', 'build'], baselineDir);
  } catch (error) {
    rmSync(baselineDir, { recursive: true, force: true });
    return { ok: false, reason: `could not build it: ${(error as Error).message.split('\n')[0]}` };
  }
  return existsSync(baselineEntry)
    ? { ok: true, entry: baselineEntry }
    : { ok: false, reason: `its build left no ${baselineEntry}` };
}

/** `pnpm@<version>` from the root package.json's `packageManager`. */
function repositoryPnpm(): string {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    packageManager?: string;
  };
  const spec = manifest.packageManager ?? '';
  if (!/^pnpm@\d+\.\d+\.\d+$/.test(spec))
    throw new Error(`packageManager is "${spec}", not pnpm@x.y.z`);
  return spec;
}

function run(command: string, args: string[], cwd = REPO_ROOT): void {
  execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}
