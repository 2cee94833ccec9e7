// compare between a drifted target and the mock: every planted difference is listed with its provenance and what to change.
import { createMockServer } from '@payment-service/mock';
import { afterAll, describe, expect, it } from 'vitest';
import { createDriftProxy, DRIFTS, type Drift } from '../drift/index.js';
import { compareTargets } from './compare.js';
import { formatComparison } from './format.js';

const unlimited = Number.POSITIVE_INFINITY;

describe('compareTargets', () => {
  const provider = createMockServer();
  const mock = createMockServer();
  afterAll(() => {
    provider.close();
    mock.close();
  });

  it('finds nothing between two mocks', async () => {
    const other = createMockServer();
    const comparison = await compareTargets({
      live: {
        baseUrl: 'http://provider.local',
        apiKey: 'sk_test_compare_same',
        fetch: (request) => other.fetch(request),
        rate: unlimited,
        scenarios: ['create-payment', 'lifecycle', 'bad-input'],
      },
      against: {
        baseUrl: 'http://mock.local',
        apiKey: 'sk_test_compare_same',
        fetch: (request) => mock.fetch(request),
        rate: unlimited,
        scenarios: ['create-payment', 'lifecycle', 'bad-input'],
      },
    });
    other.close();
    expect(comparison.differences).toEqual([]);
    expect(comparison).toMatchObject({
      exitCode: 0,
      compared: ['create-payment', 'lifecycle', 'bad-input'],
    });
  }, 120_000);

  it('lists each planted difference of a drifted provider, with provenance and the change to make', async () => {
    const comparison = await compareTargets({
      live: {
        baseUrl: 'http://provider.local',
        apiKey: 'sk_test_compare_drifted',
        fetch: createDriftProxy(
          (request) => provider.fetch(request),
          Object.keys(DRIFTS) as Drift[],
        ),
        rate: unlimited,
      },
      against: {
        baseUrl: 'http://mock.local',
        apiKey: 'sk_test_compare_mock',
        fetch: (request) => mock.fetch(request),
        rate: unlimited,
      },
    });
    const find = (aspect: string, field?: string) =>
      comparison.differences.find(
        (difference) =>
          difference.label === 'POST createPayment' &&
          difference.aspect === aspect &&
          (field === undefined || difference.field === field),
      );
    expect(find('value', 'created_at')).toMatchObject({
      live: '9-9-9T9:9:9.9Z',
      against: '9-9-9T9:9:9Z',
      change: 'provider',
    });
    expect(find('value', 'created_at')?.element.provenance.kind).toBe('documented');
    expect(find('shape', 'object')).toMatchObject({
      live: '(absent)',
      against: '"payment"',
      change: 'provider',
    });
    expect(find('value', 'status')).toMatchObject({ live: '"COMPLETED"', against: '"SUCCEEDED"' });
    expect(find('status')).toMatchObject({ live: '200', against: '201', change: 'spec' });
    expect(find('status')?.element.provenance.kind).toBe('inferred');
    expect(find('code')).toMatchObject({
      live: 'validation_error',
      against: 'invalid_request',
      change: 'spec',
    });
    expect(find('header', 'Request-Id')).toMatchObject({
      live: 'absent',
      against: 'sent',
      change: 'spec',
    });
    expect(comparison.oneSided).toEqual([]);
    expect(comparison.exitCode).toBe(1);
    const text = formatComparison(comparison, 'text');
    expect(text).toContain('Differences on documented elements');
    expect(text).toContain('change  provider');
    expect(JSON.parse(formatComparison(comparison, 'json')).differences.length).toBe(
      comparison.differences.length,
    );
    expect(formatComparison(comparison, 'markdown')).toContain('### documented');
  }, 120_000);
});
