// The suite each install test file runs on a merchant's project of its own, over an npm install of the packed tarballs, using them as a merchant would.
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tiedToSpawner } from '../../../test-support/child-lifetime.js';
import { temporaryDirectory } from '../../../test-support/temporary-directory.js';
import { type CliSandbox, startCliSandbox, waitForUrl } from './cli-sandbox.js';
import { runIn } from './fresh-project.js';
import { merchantScript, type ScriptFlavour } from './merchant-script.js';
import { manifestOf, packageVersion, repoRoot, toolPath } from './pack.js';
import { sharedProject, subproject } from './shared-project.js';

const tarballs = Object.values(inject('tarballs'));

const tsx = join(repoRoot, 'apps/package-tests/node_modules/.bin/tsx');

/** Triggers one event on the CLI sandbox and returns what the merchant script needs to check it. */
async function scriptEnv(sandbox: CliSandbox): Promise<Record<string, string>> {
  const response = await fetch(`${sandbox.url}/v1/payments`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer sk_test_packagetests',
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({
      amount: 1000,
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_success' },
    }),
  });
  expect(response.status).toBe(201);
  const delivery = await sandbox.firstDelivery;
  return {
    MOCK_URL: sandbox.url,
    DELIVERY: JSON.stringify(delivery),
    WEBHOOK_SECRET: sandbox.secret,
  };
}

function resultOf(stdout: string): unknown {
  const line = stdout.split('\n').find((text) => text.startsWith('RESULT '));
  return line === undefined ? stdout : JSON.parse(line.slice('RESULT '.length));
}

const expected = {
  inProcess: 'SUCCEEDED',
  overHttp: 'SUCCEEDED',
  event: 'payment.succeeded',
  forged: 'invalid_signature',
  received: '204 payment.succeeded',
  // The spec's info.version is the version of @payment-service/openapi (scripts/sync-versions.mjs).
  specVersion: packageVersion('openapi'),
};

/** A merchant's project: how it is made and how its script is run. */
export interface MerchantProject {
  name: string;
  type: 'commonjs' | 'module';
  flavour: ScriptFlavour;
}

/**
 * Declares the suite of one merchant's project (one per test file, run side by side), in a shared
 * install of the tarballs: its merchant script, `npx payment-service-mock`, and stops.
 *
 * @example
 * describeMerchantProject({ name: 'CommonJS', type: 'commonjs', flavour: 'commonjs' });
 */
export function describeMerchantProject({ name, type, flavour }: MerchantProject): void {
  describe(`a ${name} project`, () => {
    let project: string;
    let sandbox: CliSandbox;
    const script = flavour === 'typescript' ? 'smoke.ts' : 'smoke.js';

    beforeAll(async () => {
      // One install of the tarballs (without msw, the mock's optional peer dependency) for every
      // merchant project and the contract CLI's suites: nothing they run needs it. The strict
      // type-checks of every entry, msw's among them, are strict-types.test.ts's.
      const shared = await sharedProject('kit', inject('tarballs'), inject('registry'));
      project = await subproject(shared, flavour, type);
      await writeFile(join(project, script), merchantScript(flavour));
      sandbox = await startCliSandbox(project);
    });
    afterAll(async () => {
      await sandbox?.stop();
    });

    it('creates payments in process and against the installed payment-service-mock, and verifies a delivery', async () => {
      // tsx's cache (tsx-<uid>) in a temporary directory of the test's, gone with it.
      const env = {
        ...(await scriptEnv(sandbox)),
        TMPDIR: temporaryDirectory('payment-service-tsx-'),
      };
      const [command, args] = flavour === 'typescript' ? [tsx, [script]] : ['node', [script]];
      const stdout = await runIn(project, command, args, env);
      expect(resultOf(stdout)).toMatchObject(expected);
    });

    it("installs the run's own tarballs: the lockfile's integrity of each kit package is its tarball's sha512", async () => {
      const lock = JSON.parse(await readFile(join(dirname(project), 'package-lock.json'), 'utf8'));
      for (const tarball of tarballs) {
        const { name } = manifestOf(tarball);
        const sha512 = createHash('sha512')
          .update(await readFile(tarball))
          .digest('base64');
        expect(lock.packages[`node_modules/${name}`]?.integrity, name).toBe(`sha512-${sha512}`);
      }
    });

    it('prints the version with `npx payment-service-mock --version`', async () => {
      const stdout = await runIn(project, 'npx', [
        '--no-install',
        'payment-service-mock',
        '--version',
      ]);
      expect(stdout.trim()).toBe(packageVersion('mock'));
      expect(sandbox.output()).toContain(`sandbox ${packageVersion('mock')} listening on`);
    });

    it('stops `npx payment-service-mock` in the background on a SIGTERM sent to npx, freeing its port', async () => {
      // npx runs `npm exec`, which runs `sh -c payment-service-mock`: the signal stops npm and the
      // shell but never reaches node, which notices that its launcher is gone.
      const npx = spawn(
        ...tiedToSpawner('npx', ['--no-install', 'payment-service-mock', '--port', '0']),
        {
          cwd: project,
          env: { ...process.env, PATH: toolPath() },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let text = '';
      npx.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      // The pipe closes once every process holding it (npm, sh and node) has exited.
      const everyProcessExited = new Promise((resolve) => npx.stdout.on('close', resolve));
      const url = await waitForUrl(npx, () => text);
      npx.kill('SIGTERM');
      await everyProcessExited;
      expect(text).toContain('Stopping on the exit of its launcher');
      await expect(fetch(`${url}/v1/payments`)).rejects.toThrow();
    });

    it('stops the installed payment-service-mock on SIGTERM with exit code 0', async () => {
      expect(await sandbox.stop()).toBe(0);
      expect(sandbox.output()).toContain('Received SIGTERM');
      await expect(fetch(`${sandbox.url}/v1/payments`)).rejects.toThrow();
    });
  });
}
