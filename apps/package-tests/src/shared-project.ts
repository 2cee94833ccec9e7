// Fresh projects shared by the test files of a run: the first file to ask installs one, the others wait for it and work in subprojects of their own.
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { freshProject } from './fresh-project.js';
import type { PublishedPackage } from './pack.js';
import { kitInstallArgs } from './registry.js';
import { waitForFile } from './wait-for-file.js';

/** What the installing file leaves for the others: the project, or why it could not be made. */
type Outcome = { project: string } | { error: string };

/**
 * A CommonJS project (`npm init -y`) with every tarball (by name, from the run's registry) and
 * the `extra` packages installed by npm, made once per run for all the files that ask by its
 * `name` (an npm install costs some five CPU-seconds), in the tarballs' directory so global
 * teardown's removal of it removes the project and ends its lock.
 *
 * @example
 * const project = await sharedProject('kit', inject('tarballs'), inject('registry'));
 */
export async function sharedProject(
  name: string,
  tarballs: Record<PublishedPackage, string>,
  registry: string,
  extra: string[] = [],
): Promise<string> {
  const base = join(dirname(Object.values(tarballs)[0] as string), `project-${name}`);
  const outcomeFile = `${base}.json`;
  let installer = true;
  try {
    await mkdir(`${base}.lock`);
  } catch {
    installer = false;
  }
  if (installer) {
    let outcome: Outcome;
    try {
      outcome = {
        project: await freshProject(base, [...kitInstallArgs(tarballs, registry), ...extra]),
      };
    } catch (error) {
      outcome = { error: String((error as Error).message ?? error) };
    }
    await writeFile(`${outcomeFile}.tmp`, JSON.stringify(outcome));
    await rename(`${outcomeFile}.tmp`, outcomeFile);
  }
  const outcome = JSON.parse(await waitForFile(outcomeFile)) as Outcome;
  if ('error' in outcome) throw new Error(`the shared project ${name}: ${outcome.error}`);
  return outcome.project;
}

/**
 * A merchant's project inside a shared one: its own directory and `package.json` (of `type`),
 * and the shared install as its `node_modules` (a link: node, npx and tsc resolve every package
 * to the same real path as in a project that ran npm install itself).
 *
 * @example
 * const esm = await subproject(await sharedProject('kit-and-msw', tarballs, registry, [msw]), 'strict-module', 'module');
 */
export async function subproject(
  shared: string,
  name: string,
  type: 'commonjs' | 'module',
): Promise<string> {
  const directory = join(shared, name);
  await mkdir(directory);
  await writeFile(
    join(directory, 'package.json'),
    JSON.stringify({ name: `merchant-${name}`, version: '1.0.0', private: true, type }, null, 2),
  );
  await symlink(join(shared, 'node_modules'), join(directory, 'node_modules'), 'dir');
  return directory;
}
