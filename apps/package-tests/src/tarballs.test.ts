// Checks what each packed tarball holds: resolved versions, licence, only shipped files, resolvable source maps, attw and publint.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { problemKindInfo } from '@arethetypeswrong/core/problems';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, inject, it } from 'vitest';
import { temporaryDirectory } from '../../../test-support/temporary-directory.js';
import { PUBLISHED, repoRoot, toolPath } from './pack.js';

const run = promisify(execFile);
const tarballs = inject('tarballs');

function listFiles(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.length > 0 && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''));
}

function readFile(tarball: string, path: string): string {
  return execFileSync('tar', ['-xzOf', tarball, `package/${path}`], { encoding: 'utf8' });
}

/** Where a source-map entry points, relative to the package root. */
function resolveSource(mapPath: string, source: string): string {
  const parts = mapPath.split('/').slice(0, -1);
  for (const segment of source.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

describe.each(PUBLISHED)('the %s tarball', (name) => {
  const tarball = tarballs[name];
  const files = listFiles(tarball);

  it('has no workspace: range and the release metadata', () => {
    const manifestText = readFile(tarball, 'package.json');
    expect(manifestText).not.toContain('workspace:');
    const manifest = JSON.parse(manifestText);
    expect(manifest.license).toBe('MIT');
    expect(manifest.repository).toMatchObject({ type: 'git', directory: `packages/${name}` });
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.bugs.url).toMatch(/^https:\/\//);
    expect(manifest.keywords.length).toBeGreaterThan(0);
    expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
  });

  it('ships the MIT licence, a README and nothing but dist, src and bin (and the contract’s published JSON Schemas)', () => {
    expect(readFile(tarball, 'LICENSE')).toMatch(/^MIT License/);
    expect(files).toContain('README.md');
    const unexpected = files.filter(
      (file) =>
        !['package.json', 'README.md', 'LICENSE'].includes(file) &&
        !/^(dist|src|bin)\//.test(file) &&
        !(name === 'contract' && /^schema\/[a-z]+\.schema\.json$/.test(file)),
    );
    expect(unexpected).toEqual([]);
    expect(files.filter((file) => /\.test\.|test-support/.test(file))).toEqual([]);
  });

  it('has source maps whose sources are in the tarball', () => {
    const maps = files.filter((file) => file.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    // One extraction of every map (a `tar -xzOf` per map unpacked the tarball hundreds of times).
    const unpacked = temporaryDirectory('tarball-maps-');
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--wildcards', 'package/*.map']);
    const shipped = new Set(files);
    const missing = maps.flatMap((map) =>
      (JSON.parse(readFileSync(join(unpacked, 'package', map), 'utf8')).sources as string[])
        .map((source) => resolveSource(map, source))
        .filter((source) => !shipped.has(source))
        .map((source) => `${map} → ${source}`),
    );
    expect(missing).toEqual([]);
  });

  it('resolves for every module system (attw, node16 profile: CommonJS and ESM)', async () => {
    // attw's own checks (@arethetypeswrong/core), as its CLI runs them with `--profile node16`:
    // any problem under node16 (from CommonJS and from ESM) and bundler resolution fails, node10's
    // are ignored. In this process, not as four CLI processes each loading TypeScript again.
    const analysis = await checkPackage(
      createPackageFromTarballData(new Uint8Array(readFileSync(tarball))),
    );
    if (!analysis.types) throw new Error(`attw found no types in ${name}`);
    const problems = analysis.problems
      .filter((problem) => !('resolutionKind' in problem && problem.resolutionKind === 'node10'))
      .map((problem) => `${problemKindInfo[problem.kind].title}: ${JSON.stringify(problem)}`);
    expect(problems, 'attw found problems').toEqual([]);
    expect(Object.keys(analysis.entrypoints).length).toBeGreaterThan(0);
  });

  it('passes publint --strict', async () => {
    // publint's own lint (the `publint` package), as `publint run <tarball> --strict` runs it:
    // warnings count as errors and any error fails; in this process, not a CLI process each.
    const data = readFileSync(tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
      strict: true,
    });
    const errors = messages
      .filter((message) => message.type === 'error')
      .map((message) => formatMessage(message, pkg));
    expect(errors, 'publint found problems').toEqual([]);
  });
});

describe.each([
  // The mock's bin starts its launcher (dist/cli.js), which imports the bundle.
  [
    'mock',
    'dist/cli.js',
    /["']\.\/cli-bundle\.js["']/,
    ['ajv', 'ajv-formats', 'hono', '@hono/node-server'],
  ],
  [
    'contract',
    'bin/payment-service-contract.js',
    /["']\.\.\/dist\/cli-bundle\.js["']/,
    ['ajv', 'ajv-formats', 'yaml', '@streamparser/json', 'openapi-fetch'],
  ],
] as const)('the %s tarball’s CLI bundle', (name, launcher, importsBundle, packages) => {
  const tarball = tarballs[name];

  it('ships the bundle the bin runs, with the licence of every package bundled into it', () => {
    const files = listFiles(tarball);
    expect(files).toContain('dist/cli-bundle.js');
    expect(readFile(tarball, launcher)).toMatch(importsBundle);
    const notices = readFile(tarball, 'dist/cli-bundle.LICENSES.txt');
    for (const bundled of packages) {
      expect(notices).toMatch(new RegExp(`^${bundled} \\d+\\.\\d+\\.\\d+ \\(`, 'm'));
    }
  });
});

describe('the console’s assets', () => {
  it('ship with the mock only: the SDK’s install (the SDK and the types package) carries no Redoc', () => {
    for (const name of ['sdk', 'openapi'] as const) {
      expect(listFiles(tarballs[name]).filter((file) => /redoc|api-reference/i.test(file))).toEqual(
        [],
      );
    }
    expect(listFiles(tarballs.mock)).toContain('dist/redoc/redoc-standalone.cjs');
  });
});

describe('the workspace: guard', () => {
  it('refuses `npm pack`, which would ship workspace: ranges unresolved', async () => {
    const failure = await run('npm', ['pack', '--dry-run'], {
      cwd: join(repoRoot, 'packages/sdk'),
      env: { ...process.env, PATH: toolPath() },
    }).then(
      () => undefined,
      (error: { stderr: string }) => error.stderr,
    );
    expect(failure).toContain('dependencies.@payment-service/openapi: workspace:*');
    expect(failure).toContain('pnpm pack');
  });
});
