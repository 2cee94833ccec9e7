// One fresh project for every test file that asks for it in a run: the first file installs it, the others wait for it.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { freshProject } from './fresh-project.js';
import { waitForFile } from './wait-for-file.js';

/** What the installing file leaves for the others: the project, or why it could not be made. */
type Outcome = { project: string } | { error: string };

/**
 * A CommonJS project with every tarball installed, made once per run for all the files that ask
 * (by its `name`), beside the tarballs so global teardown's removal of them ends its lock.
 *
 * @example
 * const project = await sharedProject('contract', inject('tarballs'));
 */
export async function sharedProject(
  name: string,
  tarballs: Record<string, string>,
): Promise<string> {
  const paths = Object.values(tarballs);
  const base = join(dirname(paths[0] as string), `project-${name}`);
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
      outcome = { project: await freshProject('commonjs', paths) };
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
