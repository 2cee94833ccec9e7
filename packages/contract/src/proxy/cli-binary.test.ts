// The built `payment-service-contract proxy` in a child process in front of a drifted mock: SIGUSR2 writes the report, SIGTERM writes it again and exits 1.
import { spawn } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningMockServer, startMockServer } from '@payment-service/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tiedToSpawner } from '../../../../test-support/child-lifetime.js';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { type DriftProxyServer, startDriftProxy } from '../drift/index.js';

const bin = fileURLToPath(new URL('../../bin/payment-service-contract.js', import.meta.url));
const key = 'sk_test_proxy_binary_secret_1';

/** The build may run beside the tests (turbo runs build and test together): wait for its output. */
async function built() {
  const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      return await access(cli);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe('the built CLI: proxy', () => {
  let mock: RunningMockServer;
  let drifted: DriftProxyServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
    drifted = await startDriftProxy({
      upstreamUrl: mock.url,
      drifts: ['completed-instead-of-succeeded'],
    });
  });
  afterAll(async () => {
    await drifted.close();
    await mock.close();
  });

  it('reports on SIGUSR2, and at SIGTERM exits 1 naming the documented element', async () => {
    await built();
    const cwd = temporaryDirectory('contract-proxy-bin-');
    const child = spawn(
      ...tiedToSpawner(process.execPath, [
        bin,
        'proxy',
        '--target',
        drifted.url,
        '--port',
        '0',
        '--report',
        'json:report.json',
        '--report',
        'github',
      ]),
      { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    const waitFor = async (pattern: RegExp) => {
      for (;;) {
        const match = pattern.exec(stderr);
        if (match) return match;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const [, url] = (await waitFor(/proxy (http:\/\/127\.0\.0\.1:\d+) →/)) as RegExpExecArray;
    const answer = await fetch(`${url}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: 1000,
        currency: 'KZT',
        payment_method: { type: 'token', token: 'tok_test_success' },
      }),
    });
    expect(answer.status).toBe(201);
    await answer.arrayBuffer();
    child.kill('SIGUSR2');
    await waitFor(/wrote the json report to report\.json/);
    const early = JSON.parse(await readFile(join(cwd, 'report.json'), 'utf8'));
    expect(early.traffic.exchanges).toBe(1);
    child.kill('SIGTERM');
    expect(await exited).toBe(1);
    const report = JSON.parse(await readFile(join(cwd, 'report.json'), 'utf8'));
    const drift = report.checks.find(
      (check: { id: string }) => check.id === 'createPayment.captured-is-succeeded',
    );
    expect(drift.element).toMatchObject({
      pointer: '/components/schemas/PaymentStatus',
      value: 'SUCCEEDED',
      provenance: { kind: 'documented', section: '3' },
      file: 'spec/openapi.yaml',
    });
    expect(stdout).toMatch(
      /::error file=spec\/openapi\.yaml,line=\d+,title=\[documented\] createPayment\.captured-is-succeeded::/,
    );
    expect(stdout + stderr).not.toContain(key);
  });
});
