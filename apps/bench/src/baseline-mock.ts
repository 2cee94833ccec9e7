// The mock as it was before its redesign (issue 9), built on demand from git into apps/bench/.cache.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR, REPO_ROOT } from './paths.js';

/** The last commit before the mock's redesign: its CLI is the "no regression" baseline. */
export const BASELINE_MOCK_COMMIT = 'd7ac2fd';

/** The baseline's CLI entry, or why it is not available. */
export type BaselineMock = { ok: true; entry: string } | { ok: false; reason: string };

/** The build of the mock before issue 41's redesign of its core: the stage table's "before". */
export const STAGES_BASELINE_COMMIT = 'd4b14ca';

/**
 * The mock before the store seam, the data directory and the Redis store (2026-11-25): issue 41's
 * second "no regression" point, where retrieves were a third faster than at d4b14ca. The history
 * starts 2026-11-22 and has no release yet, so it and d7ac2fd (the first day's main) are the
 * previous builds the throughput table compares with.
 */
export const BEFORE_SEAM_MOCK_COMMIT = '9bf239d';

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
  return ensureMockBuild(BASELINE_MOCK_COMMIT, install);
}

/**
 * The mock before the store seam (`BEFORE_SEAM_MOCK_COMMIT`), found or built as
 * `ensureBaselineMock` does.
 *
 * @example
 * const beforeSeam = ensureBeforeSeamMock(true);
 * if (beforeSeam.ok) serverCommand('mock-before-seam', { mockBeforeSeam: beforeSeam.entry });
 */
export function ensureBeforeSeamMock(install: boolean): BaselineMock {
  return ensureMockBuild(BEFORE_SEAM_MOCK_COMMIT, install);
}

/**
 * The mock's CLI as built at a commit, in `apps/bench/.cache/mock-<commit>` (built there from
 * `git archive` when absent and `install` is true, as `ensureBaselineMock` does).
 *
 * @example
 * const build = ensureMockBuild('d4b14ca', true); // { ok: true, entry: '…/.cache/mock-d4b14ca/packages/mock/dist/cli.js' }
 */
export function ensureMockBuild(commit: string, install: boolean): BaselineMock {
  const buildDir = join(CACHE_DIR, `mock-${commit}`);
  const entry = join(buildDir, 'packages/mock/dist/cli.js');
  if (existsSync(entry)) return { ok: true, entry };
  if (!install)
    return { ok: false, reason: 'not built (smoke mode builds it only with BENCH_BASELINE=1)' };
  try {
    rmSync(buildDir, { recursive: true, force: true });
    mkdirSync(buildDir, { recursive: true });
    process.stderr.write(`bench: building the mock at ${commit} in ${buildDir}\n`);
    const archive = join(CACHE_DIR, `mock-${commit}.tar`);
    run('git', ['-C', REPO_ROOT, 'archive', '--format=tar', '-o', archive, commit]);
    run('tar', ['-xf', archive, '-C', buildDir]);
    rmSync(archive, { force: true });
    const pnpm = [`-y`, repositoryPnpm()];
    const only = ['--filter', '@payment-service/mock...'];
    run('npx', [...pnpm, 'install', '--frozen-lockfile', '--prefer-offline', ...only], buildDir);
    run('npx', [...pnpm, '-r', ...only, 'run', 'build'], buildDir);
  } catch (error) {
    rmSync(buildDir, { recursive: true, force: true });
    return { ok: false, reason: `could not build it: ${(error as Error).message.split('\n')[0]}` };
  }
  return existsSync(entry)
    ? { ok: true, entry }
    : { ok: false, reason: `its build left no ${entry}` };
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
