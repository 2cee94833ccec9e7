// runContractCheck against the mock: clean runs (in process, over HTTP, three in a row on a long-used key, two at once on one key) and every way a run is refused or stopped.
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { createMockServer } from '@payment-service/mock';
import { type RunningMockServer, startMockServer } from '@payment-service/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors.js';
import type { ContractReport } from '../report.js';
import type { Clock } from './clock.js';
import { runContractCheck } from './run.js';

const unlimited = Number.POSITIVE_INFINITY;

/** Lists a report's failures as `operation check: expected / got`, so a failing assertion says what broke. */
function failures(report: ContractReport): string[] {
  return report.checks
    .filter((check) => check.outcome === 'failed')
    .map(
      (check) =>
        `${check.operation} ${check.id}: ${check.example?.expected} / ${check.example?.actual}`,
    );
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('runContractCheck against the mock in process', () => {
  const mock = createMockServer();
  afterAll(() => mock.close());

  it('passes every check with a webhook receiver, and reports none skipped', async () => {
    const report = await runContractCheck({
      baseUrl: 'http://mock.local',
      apiKey: 'sk_test_inprocess_clean',
      fetch: (request) => mock.fetch(request),
      rate: unlimited,
      webhookUrl: 'http://127.0.0.1:0/hooks',
    });
    expect(failures(report)).toEqual([]);
    expect(report).toMatchObject({
      verdict: 'passed',
      exitCode: 0,
      errors: [],
      target: { sandboxControls: true, webhooks: true },
    });
    expect(report.summary.skipped).toBe(0);
    expect(report.summary.passed).toBeGreaterThan(300);
    expect(JSON.stringify(report)).not.toContain('sk_test_inprocess_clean');
    const left = await mock.fetch(
      new Request('http://mock.local/v1/webhook_endpoints', {
        headers: { authorization: 'Bearer sk_test_inprocess_clean' },
      }),
    );
    expect((await left.json()).data).toEqual([]);
  });

  it('reports the webhook checks as skipped, with the reason, when no receiver is given', async () => {
    const report = await runContractCheck({
      baseUrl: 'http://mock.local',
      apiKey: 'sk_test_inprocess_nohooks',
      fetch: (request) => mock.fetch(request),
      rate: unlimited,
      scenarios: ['webhooks', 'create-payment'],
    });
    const skipped = report.checks.filter((check) => check.outcome === 'skipped');
    expect(skipped.map((check) => check.id)).toEqual(
      expect.arrayContaining(['webhooks.notifies-status-change', 'webhooks.signature-verifies']),
    );
    expect(skipped.every((check) => check.skipReason?.includes('--webhook-url'))).toBe(true);
    expect(report.exitCode).toBe(0);
  });
});

describe('runContractCheck against the mock over HTTP', () => {
  let server: RunningMockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(() => server.close());

  it('passes three runs in a row on a key that long use has filled (2,000 payments first)', async () => {
    // What twenty runs in a row guarded against (state a key accumulates), reached in seconds.
    const apiKey = 'sk_test_long_used_key';
    const body = JSON.stringify({
      amount: 1250,
      currency: 'EUR',
      payment_method: { type: 'token', token: 'tok_test_success' },
    });
    // Filled through node:http on 20 kept-alive sockets: the fill is not what is tested, and
    // fetch's client took about as much CPU as the mock's creates did (6.3 CPU-s in all, 3.4 so).
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    const create = (idempotencyKey: string) =>
      new Promise<number>((resolve, reject) => {
        const outgoing = request(
          `${server.url}/v1/payments`,
          {
            method: 'POST',
            agent,
            headers: {
              authorization: `Bearer ${apiKey}`,
              'content-type': 'application/json',
              'idempotency-key': idempotencyKey,
            },
          },
          (answer) => {
            answer.resume();
            answer.on('end', () => resolve(answer.statusCode ?? 0));
            answer.on('error', reject);
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    try {
      for (let batch = 0; batch < 100; batch++) {
        const statuses = await Promise.all(
          Array.from({ length: 20 }, (_, index) => create(`fill-${batch}-${index}`)),
        );
        expect(statuses.filter((status) => status !== 201)).toEqual([]);
      }
    } finally {
      agent.destroy();
    }
    const verdicts: string[] = [];
    for (let run = 0; run < 3; run++) {
      const report = await runContractCheck({ baseUrl: server.url, apiKey, rate: unlimited });
      verdicts.push(`${report.verdict} ${failures(report).join('; ')}`.trim());
    }
    expect(verdicts).toEqual(['passed', 'passed', 'passed']);
  }, 600_000);

  it('passes two runs at once on the same key', async () => {
    const options = {
      baseUrl: server.url,
      apiKey: 'sk_test_two_at_once',
      rate: unlimited,
      webhookUrl: 'http://127.0.0.1:0/hooks',
    };
    const reports = await Promise.all([runContractCheck(options), runContractCheck(options)]);
    expect(reports.map(failures)).toEqual([[], []]);
    expect(reports.map((report) => report.exitCode)).toEqual([0, 0]);
  }, 300_000);
});

describe('runContractCheck refuses or stops', () => {
  const counting = () => {
    const sent: string[] = [];
    return {
      sent,
      fetch: async (request: Request) => {
        sent.push(request.url);
        return new Response('{}');
      },
    };
  };

  it.each([
    ['an sk_live_ key', { apiKey: 'sk_live_abcdefghijklmnop' }, /refusing an sk_live_ key/],
    ['no key', { apiKey: '' }, /no key/],
    ['a publishable key', { apiKey: 'pk_test_abcdefgh' }, /sk_test_/],
    ['a base URL that is not http', { baseUrl: 'ftp://sandbox.example' }, /http\(s\) URL/],
    ['a base URL that is not a URL', { baseUrl: 'sandbox' }, /http\(s\) URL/],
    ['a negative rate', { rate: -1 }, /--rate must be a positive number/],
    ['a fractional budget', { maxRequests: 1.5 }, /whole number/],
    ['an unknown policy', { failOn: 'sometimes' as never }, /--fail-on must be one of/],
    ['an unknown scenario', { scenarios: ['teleport'] }, /unknown scenario teleport/],
    ['a webhook URL that is not http', { webhookUrl: 'mailto:ops@shop.test' }, /--webhook-url/],
  ])(
    'refuses %s with a ConfigurationError (exit 2) and sends nothing',
    async (_name, change, message) => {
      const { sent, fetch } = counting();
      const error = await runContractCheck({
        baseUrl: 'http://127.0.0.1:9',
        apiKey: 'sk_test_config',
        fetch,
        ...change,
      }).catch((caught) => caught);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.exitCode).toBe(2);
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain('abcdefghijklmnop');
      expect(sent).toEqual([]);
    },
  );

  it('exits 3 naming a closed port, with no check failed', async () => {
    const port = await closedPort();
    const report = await runContractCheck({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'sk_test_closed_port',
    });
    expect(report).toMatchObject({ verdict: 'unreachable', exitCode: 3, requests: 1 });
    expect(report.message).toContain(`could not connect to 127.0.0.1:${port}: connection refused`);
    expect(report.summary.failed).toBe(0);
  });

  it('exits 3 with "KEY REFUSED" when the first request is a 401, sending nothing more', async () => {
    const { sent } = counting();
    const refusing = async (request: Request) => {
      sent.push(request.url);
      return new Response(JSON.stringify({ code: 'invalid_api_key' }), {
        status: 401,
        headers: { 'content-type': 'application/problem+json' },
      });
    };
    const report = await runContractCheck({
      baseUrl: 'http://sandbox.example',
      apiKey: 'sk_test_refused_key',
      fetch: refusing,
    });
    expect(report).toMatchObject({ verdict: 'key-refused', exitCode: 3 });
    expect(report.message).toMatch(/^KEY REFUSED: the target refused the key/);
    expect(report.summary.failed).toBe(0);
    expect(sent).toHaveLength(1);
  });

  it('exits 3 when the target stops answering in the middle of a run', async () => {
    const mock = createMockServer();
    let answered = 0;
    const dying = async (request: Request) => {
      answered += 1;
      if (answered > 10) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      return mock.fetch(request);
    };
    const report = await runContractCheck({
      baseUrl: 'http://mock.local',
      apiKey: 'sk_test_dying_target',
      fetch: dying,
      rate: unlimited,
    });
    mock.close();
    expect(report).toMatchObject({ verdict: 'unreachable', exitCode: 3 });
    expect(report.message).toContain('closed the connection (ECONNRESET)');
  });

  it('judges a request the target drops while it still answers others as a failed check, not an unreachable target', async () => {
    const mock = createMockServer();
    const dropsHugeBodies = async (request: Request) => {
      const body = await request.clone().text();
      if (body.length > 1_000_000)
        throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      return mock.fetch(request);
    };
    const report = await runContractCheck({
      baseUrl: 'http://mock.local',
      apiKey: 'sk_test_drops_huge_bodies',
      fetch: dropsHugeBodies,
      rate: unlimited,
      scenarios: ['bad-input'],
    });
    mock.close();
    const tooLarge = report.checks.find(
      (check) => check.operation === 'createPayment' && check.id === 'createPayment.body-too-large',
    );
    expect(tooLarge).toMatchObject({ outcome: 'failed', failures: 1 });
    expect(tooLarge?.example?.actual).toContain('status 0');
    expect(tooLarge?.example?.exchange?.bodyExcerpt).toContain(
      'closed the connection (ECONNRESET)',
    );
    expect(report).toMatchObject({ verdict: 'passed', exitCode: 0 });
  });

  it('stops at the request budget with exit 2 and says how to raise it', async () => {
    const mock = createMockServer();
    const report = await runContractCheck({
      baseUrl: 'http://mock.local',
      apiKey: 'sk_test_budget_limit',
      fetch: (request) => mock.fetch(request),
      rate: unlimited,
      maxRequests: 20,
    });
    mock.close();
    expect(report).toMatchObject({ verdict: 'incomplete', exitCode: 2 });
    expect(report.requests).toBeLessThanOrEqual(21 + 1);
    expect(report.message).toContain('--max-requests 20');
  });

  it('spaces requests by the rate on the injected clock, without sleeping', async () => {
    const mock = createMockServer();
    let now = 0;
    const waits: number[] = [];
    const clock: Clock = {
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    };
    const report = await runContractCheck({
      baseUrl: 'http://mock.local',
      apiKey: 'sk_test_rate_limited',
      fetch: (request) => mock.fetch(request),
      clock,
      rate: 4,
      scenarios: ['listing'],
    });
    mock.close();
    expect(report.exitCode).toBe(0);
    expect(waits.length).toBe(report.requests - 1);
    expect(waits.every((ms) => ms === 250)).toBe(true);
    expect(report.durationMs).toBe(250 * (report.requests - 1));
  });
});
