import { createClient } from '@payment-service/sdk';
import { describe, expect, it } from 'vitest';
import { wrkScript } from './load/wrk.js';
import { MOCK_CLI_NODE_FLAGS, shebangNodeFlags } from './paths.js';
import { BENCH_KEYS, benchApiKey, createLoadSpec } from './payment-request.js';
import { packageOf, shortLocation, summarizeProfile } from './profile-summary.js';
import { proxyOverheadTargets } from './proxy-overhead-report.js';
import { buildReport, type Measurements } from './report.js';
import { SDK_FETCH_INIT } from './sdk-overhead.js';
import { median, ratio, round } from './stats.js';
import type { ThroughputResult } from './throughput.js';

describe('stats', () => {
  it('takes medians and ratios', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
    expect(ratio(1, 4)).toBe(0.25);
    expect(ratio(1, 0)).toBeNull();
    expect(ratio(undefined, 1)).toBeNull();
    expect(round(1234.567, 3)).toBe(1230);
  });
});

describe('wrkScript', () => {
  it('sets a fresh Idempotency-Key per request only when asked', () => {
    const base = {
      baseUrl: 'http://127.0.0.1:1',
      path: '/v1/payments',
      headers: { authorization: 'Bearer sk_test_x' },
      connections: 1,
      durationSeconds: 1,
    };
    const post = wrkScript({
      ...base,
      method: 'POST',
      body: '{"a":"b"}',
      uniqueIdempotencyKey: true,
    });
    expect(post).toContain('wrk.body = "{\\"a\\":\\"b\\"}"');
    expect(post).toContain('wrk.headers["Idempotency-Key"]');
    expect(post).toContain('BENCH_JSON');
    const get = wrkScript({ ...base, method: 'GET', uniqueIdempotencyKey: false });
    expect(get).not.toContain('Idempotency-Key');
    expect(get).not.toContain('function request');
  });

  it('spreads the requests over the API keys in turn when asked', () => {
    const script = wrkScript({
      baseUrl: 'http://127.0.0.1:1',
      path: '/v1/payments',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      uniqueIdempotencyKey: true,
      apiKeys: 1000,
      connections: 1,
      durationSeconds: 1,
    });
    expect(script).toContain(
      'wrk.headers["Authorization"] = string.format("Bearer sk_test_bench_key_%04d", counter % 1000)',
    );
    expect(benchApiKey(7)).toBe('sk_test_bench_key_0007');
    expect(createLoadSpec('http://127.0.0.1:1', 50, 1)).toMatchObject({
      apiKeys: BENCH_KEYS,
      uniqueIdempotencyKey: true,
    });
  });
});

describe('summarizeProfile', () => {
  it('ranks functions and packages by self samples, idle apart', () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });
    const summary = summarizeProfile({
      nodes: [
        { id: 1, hitCount: 50, callFrame: frame('(idle)', '') },
        {
          id: 2,
          hitCount: 30,
          callFrame: frame(
            'compose',
            'file:///r/node_modules/.pnpm/hono@4/node_modules/hono/dist/compose.js',
          ),
        },
        {
          id: 3,
          hitCount: 10,
          callFrame: frame('handle', 'file:///r/packages/mock/dist/http/v1.js'),
        },
        { id: 4, hitCount: 10, callFrame: frame('writev', 'node:internal/stream_base_commons') },
      ],
    });
    expect(summary.idlePercent).toBe(50);
    expect(summary.topFunctions[0]).toEqual({
      name: 'compose hono/dist/compose.js:10',
      percent: 60,
    });
    expect(summary.byPackage.map((row) => row.name)).toEqual(['hono', 'mock', 'node']);
  });

  it('names locations and packages', () => {
    expect(shortLocation('file:///r/node_modules/@hono/node-server/dist/index.mjs')).toBe(
      '@hono/node-server/dist/index.mjs',
    );
    expect(packageOf('@hono/node-server/dist/index.mjs', 'f')).toBe('@hono/node-server');
    expect(packageOf('', 'JSONParse')).toBe('(native)');
    expect(packageOf('', '(garbage collector)')).toBe('(garbage collector)');
  });
});

describe('shebangNodeFlags', () => {
  it('reads the node flags of an env -S shebang, and none of a plain one', () => {
    expect(shebangNodeFlags('#!/usr/bin/env -S node --max-old-space-size=384\nimport x;')).toEqual([
      '--max-old-space-size=384',
    ]);
    expect(shebangNodeFlags('#!/usr/bin/env node\n')).toEqual([]);
  });

  it("finds the mock's launcher flag, so the harness starts the CLI as npx does", () => {
    expect(MOCK_CLI_NODE_FLAGS).toEqual([expect.stringMatching(/^--max-old-space-size=\d+$/)]);
  });
});

describe('SDK_FETCH_INIT', () => {
  it('is the init the SDK passes to fetch (the "same init" baseline copies it)', async () => {
    const inits: RequestInit[] = [];
    const client = createClient({
      apiKey: 'sk_test_bench_units_0001',
      baseUrl: 'http://bench.test',
      fetch: async (_input: RequestInfo | URL, init?: RequestInit) => {
        inits.push(init ?? {});
        return Response.json({ id: 'pay_1', object: 'payment' }, { status: 201 });
      },
    });
    await client.payments.create({
      amount: 1,
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_success' },
    });
    expect(inits).toHaveLength(1);
    for (const [name, value] of Object.entries(SDK_FETCH_INIT)) {
      expect(inits[0]?.[name as keyof RequestInit]).toBe(value);
    }
  });
});

describe('buildReport', () => {
  const result = (
    server: ThroughputResult['server'],
    requestsPerSecond: number,
    correct = true,
  ) => ({
    server,
    endpoint: 'create' as const,
    requestsPerSecond,
    p50Ms: 1,
    p99Ms: 2,
    p999Ms: 3,
    rounds: [],
    correct,
    probe: correct ? '201 payment' : '503 sandbox_full',
  });
  const measurements = (throughput: ThroughputResult[]) =>
    ({
      throughput,
      coldStart: [],
      sdkOverhead: [],
      proxyOverhead: [],
      attackMemory: [],
      fixes: [],
      skipped: [],
      settings: { mode: 'smoke', connections: 50 },
      durationSeconds: 1,
    }) as unknown as Measurements;

  it('takes a ratio of servers that answered every request right', () => {
    const report = buildReport(measurements([result('hono-floor', 100), result('mock', 50)]));
    expect(report.ratios['create.mock/hono-floor']).toBe(0.5);
  });

  it('never measures refusals as speed: a server with non-2xx answers has no ratio', () => {
    const report = buildReport(
      measurements([result('hono-floor', 100), result('mock', 500, false)]),
    );
    expect(report.ratios['create.mock/hono-floor']).toBeNull();
    expect(report.ratios['create.p99.mock/hono-floor']).toBeNull();
  });

  it('judges create and retrieve against both previous builds (d7ac2fd and 9bf239d) of the same run', () => {
    const report = buildReport(
      measurements([
        result('mock', 120),
        result('mock-before', 100),
        result('mock-before-seam', 150),
        { ...result('mock', 90), endpoint: 'retrieve' },
        { ...result('mock-before', 60), endpoint: 'retrieve' },
      ]),
    );
    expect(report.ratios['create.mock/mock-before']).toBe(1.2);
    expect(report.ratios['create.mock/mock-before-seam']).toBe(0.8);
    expect(report.ratios['retrieve.mock/mock-before']).toBe(1.5);
    expect(report.ratios['retrieve.mock/mock-before-seam']).toBeNull();
    const rows = report.targets
      .filter((target) => target.name.includes('no regression'))
      .map(
        (target) =>
          `${target.name.split(' (')[0]} ${target.name.match(/\((\w+),/)?.[1]}: ${target.value} ${target.met}`,
      );
    expect(rows).toEqual([
      'retrieve throughput vs the mock before the redesign d7ac2fd: 1.50× true',
      'create throughput vs the mock before the redesign d7ac2fd: 1.20× true',
      'retrieve throughput vs the mock before the store seam 9bf239d: n/a (not built) null',
      'create throughput vs the mock before the store seam 9bf239d: 0.80× false',
    ]);
  });
});

describe('proxyOverheadTargets', () => {
  const row = (
    endpoint: 'create' | 'retrieve',
    p50: number,
    p99: number,
    refusals = 0,
    proxy: 'contract-proxy' | 'forward-floor' = 'contract-proxy',
  ) => ({
    proxy,
    endpoint,
    requests: 10,
    direct: { p50: 1, p99: 2 },
    proxied: { p50: 1 + p50, p99: 2 + p99 },
    added: { p50, p99 },
    non2xx: { direct: 0, proxied: refusals },
  });

  it('judges the contract proxy on its worst endpoint against 1 ms at p50 and 3 ms at p99, the floor beside it', () => {
    const [p50, p99] = proxyOverheadTargets([
      row('create', 0.4, 3.5),
      row('retrieve', 0.9, 1),
      row('create', 0.2, 2.5, 0, 'forward-floor'),
      row('retrieve', 5, 9, 0, 'forward-floor'),
    ]);
    expect(p50).toMatchObject({ value: '0.90 ms (bare forwarding floor: 5.00 ms)', met: true });
    expect(p99).toMatchObject({ value: '3.50 ms (bare forwarding floor: 9.00 ms)', met: false });
  });

  it('measures nothing when an answer was not 2xx, or nothing ran', () => {
    expect(proxyOverheadTargets([row('create', 0.1, 0.1, 1)])[0]).toMatchObject({
      value: 'n/a (non-2xx answers)',
      met: null,
    });
    expect(proxyOverheadTargets([])[1]).toMatchObject({ value: 'n/a (not measured)', met: null });
  });
});
