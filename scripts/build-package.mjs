// Builds one package's dist/ in one pass over its sources:
// - declarations (.d.ts and their maps) from `tsc -b` over the package's library project(s)
//   (tsconfig.build.json: composite, declarations only, type-checked; the root `tsc -b` of
//   `npm run typecheck` then finds them up to date and checks only the tests against them);
// - JavaScript from esbuild, file by file (not bundled: every module keeps its path, so the
//   `exports` map and deep imports resolve as before): ESM in dist/, CommonJS in dist/cjs/, each
//   with a source map pointing into the shipped src/;
// - dist/cjs/package.json marks the CommonJS build as such, and the declarations are copied
//   beside it (their maps re-pointed), so TypeScript reads them as CommonJS under node16.
//
// usage: node ../../scripts/build-package.mjs [--types tsconfig.build.json ...] [--no-types]
//          [--no-cjs] [--cjs-exclude src/cli.ts,...] [--no-sourcemap]
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build, transform } from 'esbuild';

const { values } = parseArgs({
  options: {
    types: { type: 'string', multiple: true },
    'no-types': { type: 'boolean', default: false },
    'no-cjs': { type: 'boolean', default: false },
    'cjs-exclude': { type: 'string', default: '' },
    'no-sourcemap': { type: 'boolean', default: false },
  },
});

const packageDir = process.cwd();
const typeProjects = values['no-types'] ? [] : (values.types ?? ['tsconfig.build.json']);
const sourcemap = !values['no-sourcemap'];

/** Folders of tests only, wherever they are: test support, and the mock's store conformance suite. */
const TEST_FOLDERS = new Set(['test-support', 'conformance']);

/** The library's modules: every .ts under src/ but tests, test support and declaration files. */
function librarySources(directory = 'src') {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory()) return TEST_FOLDERS.has(entry.name) ? [] : librarySources(path);
    const module = path.endsWith('.ts') && !path.endsWith('.d.ts') && !path.endsWith('.test.ts');
    return module ? [path] : [];
  });
}

/** Every file under `directory` whose name ends with one of `suffixes`, relative to it. */
function filesUnder(directory, suffixes, prefix = '') {
  return readdirSync(join(directory, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) return path === 'cjs' ? [] : filesUnder(directory, suffixes, path);
    return suffixes.some((suffix) => path.endsWith(suffix)) ? [path] : [];
  });
}

rmSync('dist', { recursive: true, force: true });

const esmSources = librarySources();
const cjsExcluded = new Set(values['cjs-exclude'].split(',').filter(Boolean));
const cjsSources = values['no-cjs'] ? [] : esmSources.filter((path) => !cjsExcluded.has(path));
for (const path of cjsExcluded) {
  if (!esmSources.includes(path)) throw new Error(`--cjs-exclude ${path}: no such module`);
}

// esbuild runs in its own process: the JavaScript is written while tsc checks and declares.
const target = 'es2022';
const esm = build({
  entryPoints: esmSources,
  outbase: 'src',
  outdir: 'dist',
  format: 'esm',
  platform: 'node',
  target,
  tsconfig: typeProjects[0] ?? 'tsconfig.json',
  sourcemap,
  // The maps point into the shipped src/ (as tsc's did), rather than carrying a copy of it.
  sourcesContent: false,
  logLevel: 'warning',
});
// CommonJS module by module through esbuild's transform, which (unlike a build of a file in a
// "type": "module" package) reads a default import as TypeScript's CommonJS emit did: the module's
// `default` export when it marks itself `__esModule` (openapi-fetch's CommonJS build), else the module.
const tsconfigRaw = { compilerOptions: { target: 'ES2022', verbatimModuleSyntax: true } };
const cjs = Promise.all(
  cjsSources.map(async (path) => {
    const out = join('dist/cjs', `${path.slice('src/'.length, -'.ts'.length)}.js`);
    const sourcefile = relative(dirname(out), path);
    const result = await transform(readFileSync(path, 'utf8'), {
      loader: 'ts',
      format: 'cjs',
      platform: 'node',
      target,
      tsconfigRaw,
      sourcefile,
      sourcemap: sourcemap ? 'external' : false,
      sourcesContent: false,
      logLevel: 'warning',
    });
    mkdirSync(dirname(out), { recursive: true });
    const name = out.slice(dirname(out).length + 1);
    if (!sourcemap) return writeFileSync(out, result.code);
    writeFileSync(out, `${result.code}//# sourceMappingURL=${name}.map\n`);
    writeFileSync(`${out}.map`, JSON.stringify({ ...JSON.parse(result.map), file: name }));
  }),
);
const javascript = Promise.all([esm, cjs]);

if (typeProjects.length > 0) {
  const tsc = createRequire(join(packageDir, 'package.json')).resolve('typescript/bin/tsc');
  const { status } = spawnSync(process.execPath, [tsc, '-b', ...typeProjects], {
    stdio: 'inherit',
  });
  if (status !== 0) {
    await javascript.catch(() => undefined);
    console.error(`tsc -b ${typeProjects.join(' ')} failed (exit ${status})`);
    process.exit(1);
  }
}
await javascript;

if (cjsSources.length > 0) {
  writeFileSync('dist/cjs/package.json', '{ "type": "commonjs" }\n');
  // The CommonJS build's declarations: the ESM ones, for the modules the CommonJS build has.
  const cjsModules = new Set(cjsSources.map((path) => path.slice('src/'.length, -'.ts'.length)));
  for (const file of filesUnder('dist', ['.d.ts', '.d.ts.map'])) {
    if (!cjsModules.has(file.replace(/\.d\.ts(\.map)?$/, ''))) continue;
    const target = join('dist/cjs', file);
    mkdirSync(dirname(target), { recursive: true });
    if (!file.endsWith('.map')) {
      copyFileSync(join('dist', file), target);
      continue;
    }
    const map = JSON.parse(readFileSync(join('dist', file), 'utf8'));
    map.sources = map.sources.map((source) =>
      relative(dirname(resolve(target)), resolve(dirname(join('dist', file)), source)),
    );
    writeFileSync(target, JSON.stringify(map));
  }
}
