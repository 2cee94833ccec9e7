// The SDK under the sandbox's faults over real HTTP: lost responses, 429/5xx, 409 in flight, timeouts and aborts.
import {
  AbortedError,
  ConnectionError,
  IdempotencyError,
  type RequestLogEntry,
  ServerError,
  TimeoutError,
} from '@payment-service/sdk';
import { describe, expect, it } from 'vitest';
import { isLive } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

const params = {
  amount: 7_500,
  currency: 'KZT',
  capture: true,
  payment_method: { type: 'token', token: 'tok_test_success' },
} as const;

/** How many times the lost-response run is repeated, each on its own sandbox account. */
const lostResponseRuns = 50;

describe.skipIf(isLive)('SDK resilience against the mock over HTTP', () => {
  const ctx = useTarget('http');

  /** A client on a fresh key, its controls, and the log of its attempts. */
  function setUp(options: Parameters<typeof ctx.client>[1] = {}) {
    const apiKey = ctx.newApiKey();
    const log: RequestLogEntry[] = [];
    const client = ctx.client(apiKey, { logger: (entry) => log.push(entry), ...options });
    return { apiKey, client, log, controls: ctx.controls(apiKey) };
  }

  it(`creates exactly one payment when the response is lost after the commit (${lostResponseRuns} runs)`, async () => {
    const counts: number[] = [];
    const runOnce = async () => {
      const { apiKey, client, log, controls } = setUp();
      await controls.setFaults({ drop_after_commit: { count: 1 } });
      const payment = await client.payments.create(params);
      expect(payment.status).toBe('SUCCEEDED');
      expect(log.map((entry) => [entry.attempt, entry.status, entry.code])).toEqual([
        [1, undefined, 'connection_error'],
        [2, 201, undefined],
      ]);
      const page = await ctx.client(apiKey).payments.list({ limit: 100 });
      expect(page.data.map((each) => each.id)).toEqual([payment.id]);
      counts.push(page.data.length);
    };
    for (let batch = 0; batch < lostResponseRuns / 10; batch += 1) {
      await Promise.all(Array.from({ length: 10 }, runOnce));
    }
    expect(counts).toEqual(Array(lostResponseRuns).fill(1));
  }, 60_000);

  it('without retries, the lost response is a ConnectionError although the payment exists', async () => {
    const { apiKey, client, controls } = setUp({ maxRetries: 0 });
    await controls.setFaults({ drop_after_commit: { count: 1 } });
    await expect(client.payments.create(params)).rejects.toBeInstanceOf(ConnectionError);
    expect((await ctx.client(apiKey).payments.list()).data).toHaveLength(1);
  });

  it.each([429, 500, 502, 503, 504] as const)(
    'retries fail_next %i and succeeds with one payment',
    async (status) => {
      const { apiKey, client, log, controls } = setUp();
      await controls.setFaults({ fail_next: { count: 2, status, retry_after: 0 } });
      const payment = await client.payments.create(params);
      expect(log.map((entry) => entry.status)).toEqual([status, status, 201]);
      expect((await ctx.client(apiKey).payments.list()).data.map((each) => each.id)).toEqual([
        payment.id,
      ]);
    },
  );

  it('honours the Retry-After of a 429', async () => {
    const { client, log, controls } = setUp();
    await controls.setFaults({ fail_next: { count: 1, status: 429, retry_after: 1 } });
    const started = performance.now();
    await client.payments.list();
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(log.map((entry) => entry.status)).toEqual([429, 200]);
  });

  it('gives up after the default 2 retries with a ServerError counting 3 attempts', async () => {
    const { client, controls } = setUp();
    await controls.setFaults({ fail_next: { count: 3, status: 503, retry_after: 0 } });
    const error = await client.payments.list().catch((caught) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.attempts).toBe(3);
    expect(error.requestId).toMatch(/^req_/);
    expect((await client.payments.list()).object).toBe('list');
  });

  it('retries a 409 idempotency_key_in_use until the first request finishes', async () => {
    const { apiKey, client, log, controls } = setUp();
    await controls.setFaults({ latency_ms: 300 });
    const idempotencyKey = crypto.randomUUID();
    const first = client.payments.create(params, { idempotencyKey });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await client.payments.create(params, { idempotencyKey });
    expect(second).toEqual(await first);
    expect(log.some((entry) => entry.code === 'idempotency_key_in_use')).toBe(true);
    await controls.clearFaults();
    expect((await ctx.client(apiKey).payments.list()).data).toHaveLength(1);
  });

  it('without retries, a 409 idempotency_key_in_use is an IdempotencyError', async () => {
    const { client, controls } = setUp();
    await controls.setFaults({ latency_ms: 300 });
    const idempotencyKey = crypto.randomUUID();
    const first = client.payments.create(params, { idempotencyKey });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await client.payments
      .create(params, { idempotencyKey, maxRetries: 0 })
      .catch((caught) => caught);
    expect(second).toBeInstanceOf(IdempotencyError);
    expect(second.code).toBe('idempotency_key_in_use');
    await first;
  });

  it('times out a slow attempt, retries it, and throws a TimeoutError', async () => {
    const { client, log, controls } = setUp();
    await controls.setFaults({ latency_ms: 1_000 });
    const error = await client.payments
      .list(undefined, { timeout: 150, maxRetries: 1 })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.attempts).toBe(2);
    expect(log.map((entry) => entry.code)).toEqual(['timeout', 'timeout']);
  });

  it('aborts a request in flight at once', async () => {
    const { client, controls } = setUp();
    await controls.setFaults({ latency_ms: 2_000 });
    const controller = new AbortController();
    const pending = client.payments.list(undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    // Unaborted, the list would succeed after the 2 s latency: the rejection is the proof.
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
  });

  it('aborts a pending retry: nothing more is sent', async () => {
    const { client, log, controls } = setUp();
    await controls.setFaults({ fail_next: { count: 3, status: 429, retry_after: 30 } });
    const controller = new AbortController();
    const pending = client.payments.list(undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    // The retry waits 30 s (Retry-After): only the abort ends it within the test's timeout.
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    expect(log).toHaveLength(1);
    expect((await controls.getFaults()).fail_next?.count).toBe(2);
  });
});
