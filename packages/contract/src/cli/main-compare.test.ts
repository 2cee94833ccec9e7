// The CLI's compare as a CI runs it: each target gets its own key only, and a hostile answer still ends in a written report.
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockServer } from '@payment-service/mock';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { type CliIo, main } from './main.js';

const liveKey = 'sk_test_cli_compare_live_secret';
const againstKey = 'sk_test_cli_compare_against_secret';

/** Two in-process mocks behind one fetch, by host; every request's host and key are recorded. */
function targets(rewrite?: (request: Request, response: Response) => Promise<Response>) {
  const live = createMockServer();
  const against = createMockServer();
  const sent: Array<{ host: string; key: string }> = [];
  const fetch = async (request: Request) => {
    const host = new URL(request.url).host;
    sent.push({ host, key: request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '' });
    const response = await (host === 'live.local' ? live : against).fetch(request);
    return host === 'live.local' && rewrite ? rewrite(request, response) : response;
  };
  const close = () => {
    live.close();
    against.close();
  };
  return { fetch, sent, close };
}

function io(options: Partial<CliIo>) {
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

const base = ['compare', '--base-url', 'http://live.local', '--key', liveKey];
const scenario = ['--scenario', 'create-payment', '--rate', '1000'];

describe('payment-service-contract compare', () => {
  const open: Array<{ close(): void }> = [];
  afterAll(() => {
    for (const target of open) target.close();
  });

  it('refuses to run without the --against target’s own key (exit 2, naming the option), sending nothing', async () => {
    const target = targets();
    open.push(target);
    const run = io({ fetch: target.fetch });
    const code = await main([...base, '--against', 'http://against.local', ...scenario], run.io);
    expect(code).toBe(2);
    expect(run.err()).toContain('--against-key');
    expect(run.err()).toContain('PAYMENT_SERVICE_AGAINST_API_KEY');
    expect(run.err()).not.toContain(liveKey);
    expect(target.sent).toEqual([]);
  });

  it('sends --key to --base-url only, and PAYMENT_SERVICE_AGAINST_API_KEY to --against only', async () => {
    const target = targets();
    open.push(target);
    const run = io({ fetch: target.fetch, env: { PAYMENT_SERVICE_AGAINST_API_KEY: againstKey } });
    const code = await main([...base, '--against', 'http://against.local', ...scenario], run.io);
    expect(run.err()).not.toContain('unexpected error');
    expect(code).toBe(0);
    const keysBy = (host: string) =>
      new Set(
        target.sent
          .filter((request) => request.host === host)
          .map((request) => request.key)
          .filter((key) => !key.startsWith('sk_test_contract')),
      );
    expect(keysBy('live.local')).toEqual(new Set([liveKey]));
    expect(keysBy('against.local')).toEqual(new Set([againstKey]));
    expect(run.out()).toContain('SAME');
    expect(`${run.out()}${run.err()}`).not.toContain(againstKey);
  });

  it('exits 3 when the --against target cannot be reached, saying so', async () => {
    const target = targets();
    open.push(target);
    const run = io({
      fetch: (request) =>
        new URL(request.url).host === 'against.local'
          ? Promise.reject(new TypeError('fetch failed'))
          : target.fetch(request),
    });
    const code = await main(
      [...base, '--against', 'http://against.local', '--against-key', againstKey, ...scenario],
      run.io,
    );
    expect(code).toBe(3);
    expect(run.out()).toMatch(/against\.local/);
    expect(run.err()).not.toContain('unexpected error');
  });

  it('writes its report when the provider answers 20,000 nested arrays (no crash, no "unexpected error")', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const target = targets(async (request, response) => {
      if (request.method !== 'GET' || !/\/v1\/payments\/pay_/.test(request.url)) return response;
      const payment = await response.text();
      return new Response(payment.replace(/^\{/, `{"extra":${deep},`), {
        status: response.status,
        headers: response.headers,
      });
    });
    open.push(target);
    const cwd = temporaryDirectory('contract-compare-');
    const run = io({ fetch: target.fetch, cwd });
    const code = await main(
      [
        ...base,
        '--against',
        'http://against.local',
        '--against-key',
        againstKey,
        ...scenario,
        '--format',
        'json',
        '--output',
        'compare.json',
      ],
      run.io,
    );
    expect(run.err()).not.toContain('unexpected error');
    const report = JSON.parse(await readFile(join(cwd, 'compare.json'), 'utf8'));
    const deeper = report.differences.find((difference: { live: string }) =>
      difference.live.includes('nested deeper than'),
    );
    expect(deeper).toMatchObject({ aspect: 'shape', against: 'a body read' });
    expect(code).toBe(report.exitCode);
    expect(run.out()).toMatch(/^DIFFERENT/);
  });
});
