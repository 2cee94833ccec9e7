// The CLI run in process as a CI runs it: exit codes 0/1/2/3 with clear messages, reports written to files, the key never printed.
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockServer } from '@payment-service/mock';
import { type RunningMockServer, startMockServer } from '@payment-service/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { createDriftProxy } from '../drift/index.js';
import { type CliIo, main } from './main.js';

const key = 'sk_test_cli_main_secret';

function io(options: Partial<CliIo> = {}) {
  let stdout = '';
  let stderr = '';
  const value: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd: tmpdir(),
    ...options,
  };
  return { io: value, out: () => stdout, err: () => stderr };
}

describe('payment-service-contract', () => {
  let server: RunningMockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(() => server.close());

  it('check passes against the mock (exit 0), writing JUnit to a file and the verdict to stdout', async () => {
    const cwd = temporaryDirectory('contract-cli-');
    const run = io({ cwd, env: { PAYMENT_SERVICE_API_KEY: key } });
    const code = await main(
      [
        'check',
        '--base-url',
        server.url,
        '--rate',
        '10000',
        '--format',
        'junit',
        '--output',
        'out/report.xml',
        '--format',
        'json:report.json',
      ],
      run.io,
    );
    expect(code).toBe(0);
    expect(run.out()).toMatch(/^PASSED: every documented fact holds/);
    expect(run.err()).toContain('with at most 1000 requests, 10000 per second');
    const xml = await readFile(join(cwd, 'out/report.xml'), 'utf8');
    expect(xml).toContain('<testsuite name="createPayment"');
    expect(xml).not.toContain('<failure');
    expect(JSON.parse(await readFile(join(cwd, 'report.json'), 'utf8')).exitCode).toBe(0);
    expect(run.out() + run.err() + xml).not.toContain(key);
  }, 120_000);

  it('check exits 1 on a drifted target and 0 with --fail-on none', async () => {
    const mock = createMockServer();
    const fetch = createDriftProxy(
      (request) => mock.fetch(request),
      ['completed-instead-of-succeeded'],
    );
    const args = [
      'check',
      '--base-url',
      'http://drifted.local',
      '--key',
      key,
      '--rate',
      '10000',
      '--scenario',
      'create-payment',
    ];
    const failing = io({ fetch });
    expect(await main(args, failing.io)).toBe(1);
    expect(failing.out()).toContain('✗ createPayment.captured-is-succeeded');
    expect(failing.out()).toContain('provenance documented (provider document §3)');
    expect(failing.out()).toContain('reproduce  curl -sS -i -X POST');
    const tolerant = io({ fetch });
    expect(await main([...args, '--fail-on', 'none'], tolerant.io)).toBe(0);
    mock.close();
  }, 120_000);

  it('exits 2 for an sk_live_ key, sending nothing and not printing the key', async () => {
    const sent: string[] = [];
    const run = io({
      fetch: async (request) => {
        sent.push(request.url);
        return new Response('{}');
      },
    });
    expect(
      await main(['check', '--base-url', server.url, '--key', 'sk_live_abcdefghijkl'], run.io),
    ).toBe(2);
    expect(run.err()).toContain('refusing an sk_live_ key');
    expect(run.err()).not.toContain('abcdefghijkl');
    // Refused before the banner: nothing reads as if a check started.
    expect(run.err()).not.toContain('checking');
    expect(sent).toEqual([]);
  });

  it('exits 2 for a usage error, naming the option', async () => {
    const run = io();
    expect(
      await main(['check', '--base-url', server.url, '--key', key, '--fail-on', 'maybe'], run.io),
    ).toBe(2);
    expect(run.err()).toContain('--fail-on must be one of documented, inferred, any, none');
  });

  it('masks a key typed where an option was expected, before the key is known', async () => {
    const run = io();
    expect(await main(['check', '--base-url', server.url, 'sk_test_strayKey12345'], run.io)).toBe(
      2,
    );
    expect(run.err()).toContain('sk_test_…');
    expect(run.err()).not.toContain('strayKey12345');
  });

  it("exits 3 when the key is refused, and says so with the target's explanation, cleaned", async () => {
    const run = io({
      fetch: async () =>
        new Response('{"code":"invalid_api_key","detail":"unknown key\\n::error::forged"}', {
          status: 401,
        }),
    });
    expect(
      await main(['check', '--base-url', 'http://sandbox.example', '--key', key], run.io),
    ).toBe(3);
    expect(run.err()).toContain(
      'KEY REFUSED: the target refused the key: the first request (GET /v1/payments) answered 401 invalid_api_key, saying "unknown key\\u000a::error::forged"',
    );
    expect(run.out() + run.err()).not.toContain('UNREACHABLE');
    expect(run.out() + run.err()).not.toMatch(/^::/m);
  });

  it('lists the checks with their provenance', async () => {
    const run = io();
    expect(await main(['list'], run.io)).toBe(0);
    expect(run.out()).toMatch(/^\d+ scenario checks \(\d+ documented, \d+ inferred\)/);
    expect(run.out()).toContain(
      'createPayment.captured-is-succeeded\n  capture: true with tok_test_success returns status SUCCEEDED\n  documented (provider document §3)',
    );
  });

  it('prints help and the version', async () => {
    const help = io();
    expect(await main(['--help'], help.io)).toBe(0);
    expect(help.out()).toContain('Exit codes: 0 passed; 1 contract failures');
    const version = io();
    expect(await main(['--version'], version.io)).toBe(0);
    expect(version.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
