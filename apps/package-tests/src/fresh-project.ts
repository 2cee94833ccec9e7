// Fresh throwaway projects outside the monorepo: made by `npm init -y`, with the tarballs installed by npm.
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tiedToSpawner } from '../../../test-support/child-lifetime.js';
import { toolPath } from './pack.js';

const run = promisify(execFile);

/** Runs a command in `cwd` and returns its stdout; a failure carries the command's output. */
export async function runIn(
  cwd: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  try {
    // Tied to the test: a run killed meanwhile does not leave npm installing.
    const { stdout } = await run(...tiedToSpawner(command, args), {
      cwd,
      env: { ...process.env, PATH: toolPath(), NO_COLOR: '1', ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}${stderr}`);
  }
}

/**
 * `npm install` as these tests run it: no audit or funding notes, and metadata already in npm's
 * cache used as is (`--prefer-offline`: a fresh machine's empty cache fetches everything; a warm one
 * skips re-asking the registry about each of a few hundred packages, about half the install's time).
 *
 * @example
 * await runIn(directory, 'npm', [...NPM_INSTALL, ...tarballs]);
 */
export const NPM_INSTALL = ['install', '--no-audit', '--no-fund', '--prefer-offline'] as const;

/**
 * A new project in `directory` (made here: it must not exist) by `npm init -y` (CommonJS), with
 * the packages `npm install` is given (`kitInstallArgs`: the tarballs by name from the run's
 * registry, and any other package specs) installed by npm. Whoever owns `directory`'s parent
 * removes it.
 *
 * @example
 * const dir = await freshProject(join(runDirectory, 'project-msw'), [...kitInstallArgs(tarballs, registry), 'msw@^2.15.0']);
 */
export async function freshProject(directory: string, installArgs: string[]): Promise<string> {
  await mkdir(directory);
  await runIn(directory, 'npm', ['init', '-y']);
  await runIn(directory, 'npm', [...NPM_INSTALL, ...installArgs]);
  return directory;
}

/** A TypeScript module resolution a merchant's project may use. */
export type Resolution = 'node16' | 'nodenext' | 'bundler';

/**
 * A strict tsconfig without any `@types` package, for one module resolution, checking `files`.
 * Every declaration file is checked (no `skipLibCheck`: the kit's and its dependencies', as a
 * merchant's strict project checks them) except TypeScript's own `lib` files
 * (`skipDefaultLibCheck`: lib.dom.d.ts alone took 4.5 of a check's 26 s; each check 12.7-13.8 ->
 * 10.0-11.6 CPU-s).
 */
export function strictTsconfig(module: Resolution, files: string[] = ['smoke.ts']): string {
  const compilerOptions = {
    strict: true,
    noEmit: true,
    skipDefaultLibCheck: true,
    types: [],
    target: 'ES2022',
    module: module === 'bundler' ? 'preserve' : module,
    moduleResolution: module,
  };
  return JSON.stringify({ compilerOptions, files }, null, 2);
}
