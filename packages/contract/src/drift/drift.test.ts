// Proof that the checks find drift: each planted break of the mock is reported with the right check, provenance and exit code, in process and over HTTP.
import { createMockServer } from '@payment-service/mock';
import { type RunningMockServer, startMockServer } from '@payment-service/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../report.js';
import { runContractCheck } from '../runner/run.js';
import { createDriftProxy, DRIFTS, type Drift, startDriftProxy } from './index.js';

const unlimited = Number.POSITIVE_INFINITY;

/** What each drift must produce: a failed check (by operation and id) with the provenance of the fact it breaks. */
const expectations: Record<Drift, Array<[operation: string, id: string]>> = {
  'created-at-milliseconds': [
    ['createPayment', 'schema.Payment.created_at'],
    ['retrievePayment', 'schema.Payment.created_at'],
  ],
  'missing-object': [
    ['createPayment', 'schema.Payment.object'],
    ['createPayment', 'createPayment.fields-as-sent'],
  ],
  'completed-instead-of-succeeded': [['createPayment', 'createPayment.captured-is-succeeded']],
  'ok-instead-of-created': [['createPayment', 'status.success']],
  'renamed-error-code': [
    ['createPayment', 'createPayment.invalid-request'],
    ['createPayment', 'schema.Problem.code'],
  ],
  'no-request-id': [
    ['createPayment', 'header.Request-Id'],
    ['errors', 'errors.request-id-matches'],
  ],
};

function failed(report: ContractReport) {
  return report.checks.filter((check) => check.outcome === 'failed');
}

describe.each(Object.keys(DRIFTS) as Drift[])('the drift %s, in process', (drift) => {
  const mock = createMockServer();
  afterAll(() => mock.close());
  const fetch = createDriftProxy((request) => mock.fetch(request), [drift]);
  const provenance = DRIFTS[drift].provenance;
  let report: ContractReport;
  beforeAll(async () => {
    report = await runContractCheck({
      baseUrl: 'http://mock.local',
      apiKey: `sk_test_drift_${drift.replace(/-/g, '_')}`,
      fetch,
      rate: unlimited,
    });
  }, 120_000);

  it(`is reported by its checks, each ${provenance}, with evidence and a curl line`, () => {
    for (const [operation, id] of expectations[drift]) {
      const check = failed(report).find((item) => item.operation === operation && item.id === id);
      expect(check, `${operation} ${id}`).toBeDefined();
      expect(check?.element.provenance.kind).toBe(provenance);
      expect(check?.example?.expected).toBeTruthy();
      expect(check?.example?.exchange?.url).toMatch(/^http:\/\/mock\.local\//);
    }
    if (provenance === 'inferred') expect(report.summary.failedDocumented).toBe(0);
  });

  it(`exits ${provenance === 'documented' ? 1 : 0} under the default policy`, () => {
    expect(report.exitCode).toBe(provenance === 'documented' ? 1 : 0);
    expect(report.verdict).toBe(provenance === 'documented' ? 'failed' : 'passed');
  });
});

describe('the exit policy on a drifted target', () => {
  const mock = createMockServer();
  afterAll(() => mock.close());

  it.each([
    ['documented', ['ok-instead-of-created'], 0],
    ['inferred', ['ok-instead-of-created'], 1],
    ['any', ['ok-instead-of-created'], 1],
    ['none', ['missing-object', 'ok-instead-of-created'], 0],
    ['inferred', ['created-at-milliseconds'], 0],
    ['documented', ['created-at-milliseconds'], 1],
  ] as const)('--fail-on %s with %j exits %i', async (failOn, drifts, exitCode) => {
    const report = await runContractCheck({
      baseUrl: 'http://mock.local',
      apiKey: 'sk_test_drift_policy',
      fetch: createDriftProxy((request) => mock.fetch(request), drifts),
      rate: unlimited,
      failOn,
      scenarios: ['create-payment'],
    });
    expect(report.exitCode).toBe(exitCode);
  });

  it('refuses an unknown drift', () => {
    expect(() => createDriftProxy((request) => mock.fetch(request), ['teleport' as Drift])).toThrow(
      /unknown drift teleport/,
    );
  });
});

describe('every drift at once, over HTTP', () => {
  let server: RunningMockServer;
  let proxy: Awaited<ReturnType<typeof startDriftProxy>>;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
    proxy = await startDriftProxy({
      upstreamUrl: server.url,
      drifts: Object.keys(DRIFTS) as Drift[],
    });
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
  });

  it('reports each planted drift with its provenance and exits 1', async () => {
    const report = await runContractCheck({
      baseUrl: proxy.url,
      apiKey: 'sk_test_drift_over_http',
      rate: unlimited,
    });
    expect(report.exitCode).toBe(1);
    for (const [drift, pairs] of Object.entries(expectations)) {
      for (const [operation, id] of pairs) {
        const check = failed(report).find((item) => item.operation === operation && item.id === id);
        expect(check?.element.provenance.kind, `${drift}: ${operation} ${id}`).toBe(
          DRIFTS[drift as Drift].provenance,
        );
      }
    }
    // Grouped: one failed check per element and operation, however many responses broke it.
    const createdAt = failed(report).filter((check) => check.id === 'schema.Payment.created_at');
    expect(new Set(createdAt.map((check) => check.operation)).size).toBe(createdAt.length);
    expect(createdAt.some((check) => check.failures > 1)).toBe(true);
  }, 120_000);
});
