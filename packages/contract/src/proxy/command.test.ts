// `proxy` and `replay` run in process as the CLI runs them, on loopback in front of the mock: the target's drift and the app's own mistakes each named with their element and provenance, reports at SIGTERM and on demand, HAR recorded and masked, replayed against another spec.
import { EventEmitter, once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningMockServer, startMockServer } from '@payment-service/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { main } from '../cli/main.js';
import { type DriftProxyServer, startDriftProxy } from '../drift/index.js';
import type { TrafficIo } from './command.js';
import type { TrafficReport } from './traffic-report.js';

const key = 'sk_test_proxy_command_secret_1';
const specPath = fileURLToPath(new URL('../../../../spec/openapi.yaml', import.meta.url));

function io(cwd: string) {
  let stdout = '';
  let stderr = '';
  const signals = new EventEmitter();
  const printed = new EventEmitter();
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const value: TrafficIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: {
      write: (text: string) => {
        stderr += text;
        printed.emit('text');
      },
    },
    env: {},
    cwd,
    signals: {
      on: (signal, listener) => signals.on(signal, listener),
      off: (signal, listener) => signals.off(signal, listener),
    },
    onListening: (address) => listening(address),
  };
  /** Resolves once stderr says `pattern` (reports are written asynchronously after a signal). */
  const told = async (pattern: RegExp) => {
    while (!pattern.test(stderr)) await once(printed, 'text');
  };
  return { io: value, url, signals, told, out: () => stdout, err: () => stderr };
}

const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const payment = (amount: number) =>
  JSON.stringify({
    amount,
    currency: 'KZT',
    capture: true,
    payment_method: { type: 'token', token: 'tok_test_success' },
  });

describe('payment-service-contract proxy and replay', () => {
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

  it('names a documented drift and the app’s negative amount, each with its cause, and exits 1 at SIGTERM', async () => {
    const cwd = temporaryDirectory('contract-proxy-');
    const run = io(cwd);
    const exit = main(
      [
        'proxy',
        '--target',
        drifted.url,
        '--port',
        '0',
        '--report',
        'json:out/report.json',
        '--report',
        'text:out/report.txt',
        '--report',
        'junit:out/report.xml',
        '--report',
        'markdown:out/report.md',
        '--record',
        'out/traffic.har',
      ],
      run.io,
    );
    const base = await run.url;
    const created = await fetch(`${base}/v1/payments`, {
      method: 'POST',
      headers,
      body: payment(150_000),
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { status: string }).status).toBe('COMPLETED');
    const negative = await fetch(`${base}/v1/payments`, {
      method: 'POST',
      headers,
      body: payment(-5),
    });
    expect(negative.status).toBe(400);
    await fetch(`${base}/v1/no-such-route`, { headers });
    const live = await fetch(`${base}/v1/payments`, {
      headers: { authorization: 'Bearer sk_live_never_forwarded_1' },
    });
    expect(live.status).toBe(403);
    run.signals.emit('SIGTERM');
    expect(await exit).toBe(1);

    const report = JSON.parse(
      await readFile(join(cwd, 'out/report.json'), 'utf8'),
    ) as TrafficReport;
    expect(report.exitCode).toBe(1);
    const drift = report.checks.find((check) => check.id === 'createPayment.captured-is-succeeded');
    expect(drift).toMatchObject({
      outcome: 'failed',
      cause: 'answer',
      element: {
        pointer: '/components/schemas/PaymentStatus',
        value: 'SUCCEEDED',
        provenance: { kind: 'documented', section: '3' },
      },
      example: { expected: 'status SUCCEEDED', actual: 'status "COMPLETED"' },
    });
    const amount = report.checks.find(
      (check) => check.id === 'request.schema.CreatePaymentRequest.amount',
    );
    expect(amount).toMatchObject({
      outcome: 'failed',
      cause: 'request',
      operation: 'createPayment',
      failures: 1,
      element: { pointer: '/components/schemas/CreatePaymentRequest/properties/amount' },
      example: { actual: '-5' },
    });
    expect(amount?.runs).toBe(2);
    const route = report.checks.find((check) => check.id === 'request.route.undeclared');
    expect(route?.example?.actual).toBe('GET /v1/no-such-route is not in the spec');
    expect(report.traffic).toMatchObject({
      exchanges: 4,
      liveKeysRefused: 1,
      undeclaredRoutes: 1,
      mode: 'proxy',
    });
    expect(report.message).toMatch(/^FAILED: the target's answers drift: 1 documented/);
    expect(report.message).toContain('cause: your request');

    const text = await readFile(join(cwd, 'out/report.txt'), 'utf8');
    expect(text).toContain('✗ createPayment.captured-is-succeeded');
    expect(text).toContain('provenance documented (provider document §3)');
    expect(text).toMatch(/Your requests broke the contract \(\d+\): cause: your request/);
    expect(text).toContain('✗ request.schema.CreatePaymentRequest.amount');
    expect(await readFile(join(cwd, 'out/report.xml'), 'utf8')).toContain(
      'name="request.schema.CreatePaymentRequest.amount',
    );
    expect(await readFile(join(cwd, 'out/report.md'), 'utf8')).toContain(
      '### Your requests broke the contract',
    );

    const har = JSON.parse(await readFile(join(cwd, 'out/traffic.har'), 'utf8'));
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('@payment-service/contract');
    expect(har.log.entries).toHaveLength(3);
    const [entry] = har.log.entries;
    expect(entry).toMatchObject({
      request: { method: 'POST', url: `${drifted.url}/v1/payments`, httpVersion: 'HTTP/1.1' },
      response: { status: 201, content: { mimeType: 'application/json' } },
    });
    expect(typeof entry.startedDateTime).toBe('string');
    expect(entry.timings.wait).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(entry.request.postData.text).amount).toBe(150_000);
    expect(entry.request.headers).toContainEqual({
      name: 'authorization',
      value: 'Bearer sk_test_…',
    });
    const everything = [
      run.out(),
      run.err(),
      text,
      await readFile(join(cwd, 'out/report.json'), 'utf8'),
      await readFile(join(cwd, 'out/traffic.har'), 'utf8'),
    ].join('\n');
    expect(everything).not.toContain(key);
    expect(everything).not.toContain('sk_live_never_forwarded_1');
  });

  it('writes the reports and the recording on demand (SIGUSR2) and keeps forwarding', async () => {
    const cwd = temporaryDirectory('contract-proxy-demand-');
    const run = io(cwd);
    const exit = main(
      [
        'proxy',
        '--target',
        mock.url,
        '--port',
        '0',
        '--report',
        'json:now.json',
        '--record',
        'now.har',
        '--fail-on',
        'any',
      ],
      run.io,
    );
    const base = await run.url;
    // An endpoint's signing secret comes back once: the recording never holds it.
    const endpoint = await fetch(`${base}/v1/webhook_endpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: 'https://merchant.example/hooks' }),
    });
    const secret = ((await endpoint.json()) as { secret: string }).secret;
    expect(secret).toMatch(/^whsec_/);
    run.signals.emit('SIGUSR2');
    await run.told(/wrote the json report to now\.json/);
    await run.told(/wrote the recording to now\.har/);
    const first = JSON.parse(await readFile(join(cwd, 'now.json'), 'utf8'));
    expect(first.traffic.exchanges).toBe(1);
    expect(first.verdict).toBe('passed');
    const har = await readFile(join(cwd, 'now.har'), 'utf8');
    expect(har).not.toContain(secret);
    expect(har).toContain('whsec_…');
    // Still forwarding after the on-demand report.
    expect((await fetch(`${base}/v1/payments?limit=1`, { headers })).status).toBe(200);
    run.signals.emit('SIGINT');
    expect(await exit).toBe(0);
    const last = JSON.parse(await readFile(join(cwd, 'now.json'), 'utf8'));
    expect(last.traffic.exchanges).toBe(2);
  });

  it('writes no key into its reports in any encoding the request carried it', async () => {
    const cwd = temporaryDirectory('contract-proxy-report-keys-');
    const run = io(cwd);
    const exit = main(
      [
        'proxy',
        '--target',
        mock.url,
        '--port',
        '0',
        '--report',
        'json:keys.json',
        '--report',
        'markdown:keys.md',
        '--fail-on',
        'any',
      ],
      run.io,
    );
    const base = await run.url;
    for (const path of [
      '/v1/unknown/sk%5Ftest%5Freportsecret_1',
      '/v1/payments?limit=sk%5Ftest%5Freportsecret_2',
    ])
      await (await fetch(`${base}${path}`, { headers })).arrayBuffer();
    await (
      await fetch(`${base}/v1/payments`, {
        method: 'POST',
        headers,
        body: '{"amount":"sk\\u005ftest_reportsecret_3"}',
      })
    ).arrayBuffer();
    run.signals.emit('SIGTERM');
    await exit;
    const written = `${await readFile(join(cwd, 'keys.json'), 'utf8')}${await readFile(join(cwd, 'keys.md'), 'utf8')}${run.out()}${run.err()}`;
    expect(JSON.parse(await readFile(join(cwd, 'keys.json'), 'utf8')).traffic.exchanges).toBe(3);
    expect(written).not.toContain('reportsecret');
  });

  it('replays a recording: passes against the spec it was made under, fails against one with a renamed field', async () => {
    const cwd = temporaryDirectory('contract-replay-');
    const run = io(cwd);
    const exit = main(
      [
        'proxy',
        '--target',
        mock.url,
        '--port',
        '0',
        '--record',
        'traffic.har',
        '--report',
        'json:proxy.json',
      ],
      run.io,
    );
    const base = await run.url;
    expect(
      (await fetch(`${base}/v1/payments`, { method: 'POST', headers, body: payment(1200) })).status,
    ).toBe(201);
    expect((await fetch(`${base}/v1/payments?limit=2`, { headers })).status).toBe(200);
    run.signals.emit('SIGTERM');
    expect(await exit).toBe(0);

    const same = io(cwd);
    expect(await main(['replay', 'traffic.har', '--report', 'json:same.json'], same.io)).toBe(0);
    const sameReport = JSON.parse(await readFile(join(cwd, 'same.json'), 'utf8'));
    expect(sameReport.traffic).toMatchObject({ mode: 'replay', exchanges: 2 });
    expect(sameReport.summary.failed).toBe(0);

    const renamed = (await readFile(specPath, 'utf8')).replaceAll('created_at', 'created_on');
    await writeFile(join(cwd, 'next.yaml'), renamed);
    const next = io(cwd);
    const code = await main(
      [
        'replay',
        'traffic.har',
        '--spec',
        'next.yaml',
        '--report',
        'json:next.json',
        '--report',
        'text',
      ],
      next.io,
    );
    expect(code).toBe(1);
    const nextReport = JSON.parse(await readFile(join(cwd, 'next.json'), 'utf8')) as TrafficReport;
    const broken = nextReport.checks.find((check) => check.id === 'schema.Payment.created_on');
    expect(broken).toMatchObject({
      outcome: 'failed',
      cause: 'answer',
      element: {
        pointer: '/components/schemas/Payment/properties/created_on',
        provenance: { kind: 'documented' },
        // Relative to where the command ran, as code scanning places results in a repository.
        file: 'next.yaml',
      },
      example: { actual: 'created_on is absent' },
    });
    // The line of the property's key in the file replayed against.
    expect(broken?.element.line).toBe(renamed.split('\n').indexOf('        created_on:') + 1);
    expect(next.out()).toContain('✗ schema.Payment.created_on');
    expect(next.out()).toContain('-H "authorization: Bearer $PAYMENT_SERVICE_API_KEY"');
  });
});

describe('the proxy and the process that started it', () => {
  /** Runs the proxy with a parent watch the test ends by hand; says whether it was watched. */
  async function proxyWithParent(env: Record<string, string>, flags: string[] = []) {
    const cwd = temporaryDirectory('contract-proxy-orphan-');
    const run = io(cwd);
    let parentGone: (() => void) | undefined;
    const traffic: TrafficIo = {
      ...run.io,
      env,
      parent: {
        onGone: (listener) => {
          parentGone = listener;
          return () => {};
        },
      },
    };
    const exit = main(
      [
        'proxy',
        '--target',
        'http://127.0.0.1:9',
        '--port',
        '0',
        '--report',
        'json:report.json',
        ...flags,
      ],
      traffic,
    );
    await run.url;
    return {
      run,
      exit,
      cwd,
      parentGone: () => parentGone?.(),
      watched: () => parentGone !== undefined,
    };
  }

  it('under npx (npm exec) stops as at SIGTERM once npx ends: reports written, its exit code', async () => {
    const { run, exit, cwd, parentGone, watched } = await proxyWithParent({ npm_command: 'exec' });
    expect(watched()).toBe(true);
    expect(run.err()).toContain('started by npx (npm exec): stops once npx ends');
    parentGone();
    expect(await exit).toBe(0);
    expect(run.err()).toContain('the process that started the proxy ended');
    expect(JSON.parse(await readFile(join(cwd, 'report.json'), 'utf8')).traffic.exchanges).toBe(0);
  });

  it.each([
    ['started by a shell, nohup or a CI step (no npm)', {}, []],
    ['started by an npm script', { npm_command: 'run-script' }, []],
    ['under npx with --parent-watch off', { npm_command: 'exec' }, ['--parent-watch', 'off']],
  ])('keeps running when %s ends', async (_how, env, flags) => {
    const { run, exit, watched } = await proxyWithParent(env, flags);
    expect(watched()).toBe(false);
    expect(run.err()).not.toContain('stops once npx ends');
    run.signals.emit('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('stops with its parent wherever it was started with --parent-watch on', async () => {
    const { exit, parentGone, watched } = await proxyWithParent({}, ['--parent-watch', 'on']);
    expect(watched()).toBe(true);
    parentGone();
    expect(await exit).toBe(0);
  });

  it('refuses an unknown --parent-watch value, naming it', async () => {
    const cwd = temporaryDirectory('contract-proxy-orphan-');
    const run = io(cwd);
    const code = await main(
      ['proxy', '--target', 'http://127.0.0.1:9', '--parent-watch', 'sometimes'],
      run.io,
    );
    expect(code).toBe(2);
    expect(run.err()).toContain('--parent-watch must be one of auto, on, off, not "sometimes"');
  });
});

describe('startContractProxy without traffic', () => {
  it('reports an empty pass, as often as asked', async () => {
    const { startContractProxy } = await import('./proxy.js');
    const proxy = await startContractProxy({ target: 'http://127.0.0.1:9', port: 0 });
    const first = await proxy.report();
    const second = await proxy.report();
    await proxy.close();
    expect(first.exitCode).toBe(0);
    expect(second.traffic.exchanges).toBe(0);
  });
});
