// Every public entry of every tarball and the TypeScript merchant script, type-checked strictly without @types/node in a CommonJS project (node16, bundler) and an ESM project (nodenext), over an npm install of the packed tarballs and msw: one build of the three programs, as `tsc -b` runs it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Resolution, strictTsconfig } from './fresh-project.js';
import { merchantScript } from './merchant-script.js';
import { manifestOf } from './pack.js';
import { sharedProject, subproject } from './shared-project.js';
import { buildProjects, type StrictBuild } from './strict-build.js';

const tarballs = Object.values(inject('tarballs'));

type ProjectType = 'commonjs' | 'module';

/**
 * A module that imports every public entry of every tarball (read from their `exports`, so a
 * new entry is checked the day it is added), for a strict type-check without `@types/node`.
 */
function everyEntryModule(type: ProjectType, resolution: Resolution): string {
  const specifiers = tarballs.flatMap((tarball) => {
    const { name, exports } = manifestOf(tarball);
    return Object.keys(exports)
      .filter((subpath) => !subpath.endsWith('.json'))
      .map((subpath) => `${name}${subpath.slice(1)}`);
  });
  // msw 2's own declarations import the ESM-only `rettime`, which a CommonJS project cannot
  // type-check under node16/nodenext resolution: the msw entry is checked where msw's are.
  const mswCompiles = type === 'module' || resolution === 'bundler';
  return specifiers
    .filter((specifier) => mswCompiles || !specifier.endsWith('/msw'))
    .map(
      (specifier, index) => `import * as entry${index} from '${specifier}';\nvoid entry${index};`,
    )
    .join('\n');
}

/**
 * The checks: the project's type, and the module resolution its tsconfig uses. node16, not
 * nodenext, for CommonJS: since TypeScript 5.8 nodenext lets CommonJS require() an ESM-only entry,
 * so it would pass a tarball whose CommonJS build went missing. The ESM project checks nodenext.
 */
const CHECKS: [ProjectType, Resolution][] = [
  ['commonjs', 'node16'],
  ['commonjs', 'bundler'],
  ['module', 'nodenext'],
];

describe('strict TypeScript projects over an npm install of the packed tarballs and msw', () => {
  const tsconfigs = new Map<string, string>();
  let build: StrictBuild;

  beforeAll(async () => {
    // msw is the mock's optional peer dependency, needed by its `testing/msw` entry's types: these
    // projects share an install with it; the merchant projects and the contract CLI's suites share
    // one without it, which shows that nothing else needs it.
    const mock = tarballs.find((tarball) => manifestOf(tarball).name === '@payment-service/mock');
    const msw = `msw@${manifestOf(mock as string).peerDependencies?.msw}`;
    const shared = await sharedProject('kit-and-msw', inject('tarballs'), inject('registry'), [
      msw,
    ]);
    const projects: Record<ProjectType, string> = {
      commonjs: await subproject(shared, 'strict-commonjs', 'commonjs'),
      module: await subproject(shared, 'strict-module', 'module'),
    };
    for (const project of Object.values(projects)) {
      await writeFile(join(project, 'smoke.ts'), merchantScript('typescript'));
    }
    for (const [type, resolution] of CHECKS) {
      const entries = `entries.${resolution}.ts`;
      const tsconfig = join(projects[type], `tsconfig.${resolution}.json`);
      await writeFile(join(projects[type], entries), everyEntryModule(type, resolution));
      await writeFile(tsconfig, strictTsconfig(resolution, ['smoke.ts', entries]));
      tsconfigs.set(`${type} ${resolution}`, tsconfig);
    }
    // One build of the three projects: each a program of its own, checked in full, the
    // declaration files read once per module format (three `tsc -p` read them three times).
    build = buildProjects([...tsconfigs.values()]);
    // An install and three strict programs on one thread: 223 s at load 13 (about 25 CPU-s of
    // checking); 600 s still turns a hang into a failure.
  }, 600_000);

  it.each(CHECKS)(
    'type-checks the TypeScript script and every public entry strictly in a %s project under %s resolution without @types/node',
    (type, resolution) => {
      const tsconfig = tsconfigs.get(`${type} ${resolution}`) as string;
      expect(build.built).toContain(tsconfig);
      expect(build.diagnostics.get(tsconfig)).toEqual([]);
      expect(build.other).toEqual([]);
    },
  );
});
