// Runs the example merchant app's own `npm test` (vitest and jest suites) in a fresh copy installed from the packed tarballs.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { temporaryDirectory } from '../../../test-support/temporary-directory.js';
import { copyExample } from './example-project.js';
import { NPM_INSTALL, runIn } from './fresh-project.js';
import { toolPath } from './pack.js';
import { kitInstallArgs } from './registry.js';

const run = promisify(execFile);

/** The environment of a command run as a merchant would, without this runner's own variables. */
function merchantEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'TEST'),
  );
  return { ...env, PATH: toolPath(), NO_COLOR: '1', CI: 'true' };
}

describe('examples/merchant-app, installed from the tarballs', () => {
  it('passes its vitest and jest suites with npm test', async () => {
    const directory = temporaryDirectory('payment-service-example-');
    // The manifest as a merchant's (the kit's packages come from the tarballs, by name from the
    // run's registry), with the lockfile.
    await copyExample(directory);
    await runIn(directory, 'npm', [
      ...NPM_INSTALL,
      ...kitInstallArgs(inject('tarballs'), inject('registry')),
    ]);

    const { stdout, stderr } = await run('npm', ['test'], {
      cwd: directory,
      // jest's cache (jest_<uid>) in a temporary directory of the test's, gone with it.
      env: { ...merchantEnv(), TMPDIR: temporaryDirectory('payment-service-example-tmp-') },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout: string; stderr: string }) => {
      throw new Error(`npm test failed in ${directory}:\n${error.stdout}${error.stderr}`);
    });
    expect(stdout).toMatch(/Tests\s+\d+ passed/); // vitest's summary
    expect(stdout).not.toMatch(/failed/);
    expect(stderr).toMatch(/Tests:\s+\d+ passed, \d+ total/); // jest's summary
    // An install of some 400 packages and two suites: 236 s at load 15, past the suite's 300 s at
    // load 22 (two CI runs side by side beside other work); 600 s still turns a hang into a failure.
  }, 600_000);
});
