// compare between real targets (the mock in process, started over HTTP, or behind a wrapper that drifts or turns hostile): what it files, how it groups, what it leaves to the sandbox, what it survives.
import { createMockServer } from '@payment-service/mock';
import { type RunningMockServer, startMockServer } from '@payment-service/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDriftProxy, DRIFTS, type Drift } from '../drift/index.js';
import { type ContractCheckOptions, type ContractRun, runContract } from '../runner/run.js';
import { compareRuns, compareTargets, MAX_DIFFERENCES } from './compare.js';
import { formatComparison } from './format.js';

const unlimited = Number.POSITIVE_INFINITY;
type Fetch = (request: Request) => Promise<Response>;

/** A target whose JSON answers go through `rewrite` (the mock behind a wrapper that changes them). */
function rewriting(upstream: Fetch, rewrite: (json: unknown, request: Request) => unknown): Fetch {
  return async (request) => {
    const response = await upstream(request);
    const text = await response.text();
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    let body: string | null = text || null;
    if (text && /json/.test(headers.get('content-type') ?? ''))
      body = JSON.stringify(rewrite(JSON.parse(text), request));
    return new Response(body, { status: response.status, headers });
  };
}

/** Adds `seconds` to every UTC time in a JSON value: a sandbox whose clock reads later. */
function later(value: unknown, seconds: number): unknown {
  if (Array.isArray(value)) return value.map((item) => later(item, seconds));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, later(inner, seconds)]),
    );
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(value))
    return new Date(Date.parse(value) + seconds * 1000).toISOString().replace('.000Z', 'Z');
  return value;
}

const side = (baseUrl: string, apiKey: string, fetch?: Fetch): ContractCheckOptions => ({
  baseUrl,
  apiKey,
  rate: unlimited,
  ...(fetch ? { fetch } : {}),
});

describe('compareTargets: the mock compared with itself', () => {
  let server: RunningMockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(() => server.close());

  it('finds nothing between a mock in process whose clock reads 7 s later and a started one, with two keys', async () => {
    // In process, the 5 creates sent at once with one key find it in use (409); over HTTP they
    // replay it: who wins the race is the sandbox's. The clock readings (`now`) differ by 7 s.
    const inProcess = createMockServer();
    const comparison = await compareTargets({
      live: side(
        'http://mock.local',
        'sk_test_compare_self_one',
        rewriting(
          (request) => inProcess.fetch(request),
          (json) => later(json, 7),
        ),
      ),
      against: side(server.url, 'sk_test_compare_self_two'),
    });
    inProcess.close();
    expect(comparison.differences).toEqual([]);
    expect(comparison.exitCode).toBe(0);
    expect(comparison.compared).toContain('sandbox-controls');
    expect(comparison.compared).toContain('idempotency');
    expect(comparison.message).toMatch(/^SAME/);
  }, 120_000);

  it('finds nothing between one started mock and itself, with two keys and one seed (as the CLI runs them)', async () => {
    // The fresh keys of sandbox-controls come from the seed: alike on both sides, the second side
    // found the first side's payments under them (13 differences). They differ by the run's key.
    const comparison = await compareTargets({
      live: {
        ...side(server.url, 'sk_test_compare_same_one'),
        seed: 7,
        scenarios: ['sandbox-controls'],
      },
      against: {
        ...side(server.url, 'sk_test_compare_same_two'),
        seed: 7,
        scenarios: ['sandbox-controls'],
      },
    });
    expect(comparison.differences).toEqual([]);
    expect(comparison.compared).toEqual(['sandbox-controls']);
    expect(comparison.exitCode).toBe(0);
  }, 120_000);
});

describe('compareTargets: a drifted provider', () => {
  const provider = createMockServer();
  const mock = createMockServer();
  afterAll(() => {
    provider.close();
    mock.close();
  });
  const sides = (drifts: Drift[], scenarios?: string[]) => ({
    live: {
      ...side(
        'http://provider.local',
        'sk_test_compare_drifted',
        createDriftProxy((request) => provider.fetch(request), drifts),
      ),
      ...(scenarios ? { scenarios } : {}),
    },
    against: {
      ...side('http://mock.local', 'sk_test_compare_mock', (request) => mock.fetch(request)),
      ...(scenarios ? { scenarios } : {}),
    },
  });
  // Each drift set's two runs are made once: a comparison under any --fail-on is compareRuns over
  // them, as compareTargets does (the last test here holds that compareTargets passes the live
  // side's failOn on). Eight full comparisons (sixteen runs) became three pairs of runs.
  const runs = new Map<string, Promise<[ContractRun, ContractRun]>>();
  const runsOf = (drifts: Drift[]) => {
    const key = drifts.join(',');
    let pair = runs.get(key);
    if (pair === undefined) {
      const { live, against } = sides(drifts);
      pair = (async () => {
        const liveRun = await runContract(live);
        return [liveRun, await runContract(against)] as [ContractRun, ContractRun];
      })();
      runs.set(key, pair);
    }
    return pair;
  };
  const compareWith = async (drifts: Drift[], failOn?: ContractCheckOptions['failOn']) => {
    const [live, against] = await runsOf(drifts);
    return compareRuns(live, against, failOn ?? 'documented');
  };

  it('files COMPLETED for SUCCEEDED on the documented value (§3), the provider as the cause, in one entry, exit 1', async () => {
    const comparison = await compareWith(['completed-instead-of-succeeded']);
    expect(comparison.differences).toHaveLength(1);
    const [status] = comparison.differences;
    expect(status).toMatchObject({
      aspect: 'value',
      field: 'status',
      live: '"COMPLETED"',
      against: '"SUCCEEDED"',
      change: 'provider',
      element: { value: 'SUCCEEDED', provenance: { kind: 'documented', section: '3' } },
    });
    // One entry for every step it showed in: the create, the retrieve after it, the capture.
    expect(status?.occurrences).toBeGreaterThan(10);
    const labels = status?.steps.map((step) => `${step.scenario} ${step.label}`);
    expect(labels).toContain('create-payment POST createPayment');
    expect(labels).toContain('create-payment GET retrievePayment');
    expect(labels).toContain('lifecycle POST capturePayment');
    // The lifecycle stopped after the capture on the provider: listed with the cause.
    expect(status?.steps).toContainEqual(
      expect.objectContaining({
        scenario: 'lifecycle',
        field: '(the scenario went another way)',
        live: '(no more steps)',
      }),
    );
    expect(comparison.exitCode).toBe(1);
    const text = formatComparison(comparison, 'text');
    expect(text).toContain('Differences on documented elements (1):');
    expect(text).toContain('change  provider');
    expect(text.split('\n').filter((line) => line.includes('≠'))).toHaveLength(1);
    expect(text).toMatch(/in \d+ steps: create-payment #1 POST createPayment, /);
  }, 120_000);

  it('lists each planted difference once, with provenance and the change to make', async () => {
    const comparison = await compareWith(Object.keys(DRIFTS) as Drift[]);
    const find = (aspect: string, field?: string) =>
      comparison.differences.filter(
        (difference) =>
          difference.aspect === aspect && (field === undefined || difference.field === field),
      );
    expect(find('value', 'created_at')[0]).toMatchObject({
      live: '9-9-9T9:9:9.9Z',
      against: '9-9-9T9:9:9Z',
      change: 'provider',
      element: { provenance: { kind: 'documented' } },
    });
    expect(find('shape', 'object')).toHaveLength(1);
    expect(find('shape', 'object')[0]).toMatchObject({
      live: '(absent)',
      against: '"payment"',
      change: 'provider',
    });
    expect(find('status')).toHaveLength(1);
    expect(find('status')[0]).toMatchObject({ live: '200', against: '201', change: 'spec' });
    expect(find('status')[0]?.element.provenance.kind).toBe('inferred');
    expect(find('code')).toHaveLength(1);
    expect(find('code')[0]).toMatchObject({
      live: 'validation_error',
      against: 'invalid_request',
      change: 'spec',
    });
    expect(find('header', 'Request-Id')).toHaveLength(1);
    expect(find('header', 'Request-Id')[0]).toMatchObject({
      live: 'absent',
      against: 'sent',
      change: 'spec',
    });
    // Every documented drift is filed documented; every inferred one inferred.
    expect(
      comparison.differences
        .filter((difference) => difference.element.provenance.kind === 'documented')
        .map((difference) => difference.field)
        .sort(),
    ).toEqual(['created_at', 'object', 'status']);
    expect(comparison.oneSided).toEqual([]);
    expect(comparison.exitCode).toBe(1);
    expect(JSON.parse(formatComparison(comparison, 'json')).differences.length).toBe(
      comparison.differences.length,
    );
    expect(formatComparison(comparison, 'markdown')).toContain('### documented (3)');
  }, 120_000);

  it.each([
    ['documented', ['ok-instead-of-created'], 0],
    ['inferred', ['ok-instead-of-created'], 1],
    ['any', ['ok-instead-of-created'], 1],
    ['none', ['completed-instead-of-succeeded'], 0],
    ['documented', ['completed-instead-of-succeeded'], 1],
    ['inferred', ['completed-instead-of-succeeded'], 0],
  ] as const)(
    '--fail-on %s with %j exits %i',
    async (failOn, drifts, exitCode) => {
      expect((await compareWith([...drifts], failOn)).exitCode).toBe(exitCode);
    },
    120_000,
  );

  it('compareTargets files under the live side’s --fail-on, documented when it has none', async () => {
    const drifts: Drift[] = ['ok-instead-of-created'];
    const byDefault = await compareTargets(sides(drifts, ['create-payment']));
    expect(byDefault.differences.map((difference) => difference.aspect)).toContain('status');
    expect(byDefault.exitCode).toBe(0);
    const { live, against } = sides(drifts, ['create-payment']);
    const inferred = await compareTargets({ live: { ...live, failOn: 'inferred' }, against });
    expect(inferred.exitCode).toBe(1);
  }, 120_000);
});

describe('compareTargets: a hostile provider', () => {
  const provider = createMockServer();
  const mock = createMockServer();
  afterAll(() => {
    provider.close();
    mock.close();
  });
  const scenarios = ['create-payment'];

  it('survives 20,000 nested arrays (about 100 KB) in an answer: a difference, no crash', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const comparison = await compareTargets({
      live: {
        ...side('http://provider.local', 'sk_test_compare_deep', async (request) => {
          const response = await provider.fetch(request);
          if (request.method !== 'GET' || !/\/v1\/payments\/pay_/.test(request.url))
            return response;
          // A payment as it should be, with one more field nested 20,000 deep.
          const payment = await response.text();
          return new Response(payment.replace(/^\{/, `{"extra":${deep},`), {
            status: response.status,
            headers: response.headers,
          });
        }),
        scenarios,
      },
      against: {
        ...side('http://mock.local', 'sk_test_compare_mock', (request) => mock.fetch(request)),
        scenarios,
      },
    });
    const deeper = comparison.differences.find((difference) =>
      difference.live.includes('nested deeper than'),
    );
    expect(deeper).toMatchObject({ aspect: 'shape', against: 'a body read' });
    expect(deeper?.steps[0]?.label).toBe('GET retrievePayment');
    expect(formatComparison(comparison, 'text')).toContain('DIFFERENT');
  }, 120_000);

  it('shows a target’s text cleaned and capped: no forged line, no control or bidi character, in text and Markdown', async () => {
    const hostile = `X\n::error title=PWNED::forged\u001b[2J\u202e\`\`${'A'.repeat(100_000)}`;
    const comparison = await compareTargets({
      live: {
        ...side(
          'http://provider.local',
          'sk_test_compare_hostile',
          rewriting(
            (request) => provider.fetch(request),
            (json) =>
              json !== null && typeof json === 'object' && 'status' in json
                ? { ...json, status: hostile, [hostile]: 1, code: hostile }
                : json,
          ),
        ),
        scenarios,
      },
      against: {
        ...side('http://mock.local', 'sk_test_compare_mock', (request) => mock.fetch(request)),
        scenarios,
      },
    });
    expect(comparison.differences.length).toBeGreaterThan(0);
    for (const format of ['text', 'markdown', 'json'] as const) {
      const output = formatComparison(comparison, format);
      for (const line of output.split('\n')) {
        expect(line).not.toMatch(/^\s*::/);
        expect(line.length).toBeLessThan(4_000);
      }
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is that none is left
      expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u202e]/);
      expect(output.length).toBeLessThan(200_000);
    }
    const markdown = formatComparison(comparison, 'markdown');
    expect(markdown).toMatch(/``` [^`]*::error title=PWNED/);
  }, 120_000);

  it('keeps the report bounded however many fields a target invents: at most MAX_DIFFERENCES entries of at most 25 steps, Markdown under 1 MiB', async () => {
    const comparison = await compareTargets({
      live: {
        ...side(
          'http://provider.local',
          'sk_test_compare_wide',
          rewriting(
            (request) => provider.fetch(request),
            (json, request) =>
              json !== null && typeof json === 'object' && !Array.isArray(json)
                ? {
                    ...json,
                    ...Object.fromEntries(
                      Array.from({ length: 1_000 }, (_, index) => [
                        `${new URL(request.url).pathname.length}_${index}`,
                        index,
                      ]),
                    ),
                  }
                : json,
          ),
        ),
        scenarios,
      },
      against: {
        ...side('http://mock.local', 'sk_test_compare_mock', (request) => mock.fetch(request)),
        scenarios,
      },
    });
    expect(comparison.differences.length).toBeLessThanOrEqual(MAX_DIFFERENCES);
    expect(comparison.differences.every((difference) => difference.steps.length <= 25)).toBe(true);
    expect(formatComparison(comparison, 'markdown').length).toBeLessThan(1024 * 1024);
  }, 120_000);
});
