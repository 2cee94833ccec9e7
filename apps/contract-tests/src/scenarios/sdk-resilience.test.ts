// The SDK under the sandbox's faults over real HTTP: lost responses, 429/5xx, 409 in flight, timeouts and aborts.
import {
  AbortedError,
  ConnectionError,
  IdempotencyError,
  type RequestLogEntry,
  ServerError,
  TimeoutError,
} from '@payment-service/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runOnFakeTime, useFakeTime } from '../harness/fake-time.js';
import { useTarget } from '../harness/use-target.js';

const params = {
  amount: 7_500,
  currency: 'KZT',
  capture: true,
  payment_method: { type: 'token', token: 'tok_test_success' },
} as const;

/** How many times the lost-response run is repeated, each on its own sandbox account. */
const lostResponseRuns = 50;

describe('SDK resilience against the mock over HTTP', () => {
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

  it('gives up after the default 2 retries with a ServerError counting 3 attempts', async () => {
    const { client, controls } = setUp();
    await controls.setFaults({ fail_next: { count: 3, status: 503, retry_after: 0 } });
    const error = await client.payments.list().catch((caught) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.attempts).toBe(3);
    expect(error.requestId).toMatch(/^req_/);
    expect((await client.payments.list()).object).toBe('list');
  });

  describe('on injected time (fake timers and Date; the HTTP exchange is real)', () => {
    beforeEach(useFakeTime);
    afterEach(() => {
      vi.useRealTimers();
    });

    it('honours the Retry-After of a 429: the retry waits the 1 s it asks for', async () => {
      const { apiKey, controls } = setUp();
      await controls.setFaults({ fail_next: { count: 1, status: 429, retry_after: 1 } });
      const attempts: { status: number | undefined; at: number }[] = [];
      const logged = ctx.client(apiKey, {
        logger: (entry) => attempts.push({ status: entry.status, at: Date.now() }),
      });
      await runOnFakeTime(logged.payments.list());
      expect(attempts.map((attempt) => attempt.status)).toEqual([429, 200]);
      const [first, second] = attempts as [(typeof attempts)[0], (typeof attempts)[0]];
      expect(second.at - first.at).toBeGreaterThanOrEqual(1_000);
    });

    it('retries a 409 idempotency_key_in_use until the first request finishes', async () => {
      const { apiKey, client, log, controls } = setUp();
      await controls.setFaults({ latency_ms: 300 });
      const idempotencyKey = crypto.randomUUID();
      // Sent together: whichever arrives first holds the key, the other is answered 409 and retried.
      const [one, two] = await runOnFakeTime(
        Promise.all([
          client.payments.create(params, { idempotencyKey }),
          client.payments.create(params, { idempotencyKey }),
        ]),
      );
      expect(two).toEqual(one);
      expect(log.some((entry) => entry.code === 'idempotency_key_in_use')).toBe(true);
      await controls.clearFaults();
      expect((await ctx.client(apiKey).payments.list()).data).toHaveLength(1);
    });

    it('without retries, a 409 idempotency_key_in_use is an IdempotencyError', async () => {
      const { client, controls } = setUp({ maxRetries: 0 });
      await controls.setFaults({ latency_ms: 300 });
      const idempotencyKey = crypto.randomUUID();
      const outcomes = await runOnFakeTime(
        Promise.allSettled([
          client.payments.create(params, { idempotencyKey }),
          client.payments.create(params, { idempotencyKey }),
        ]),
      );
      const created = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.flatMap((outcome) =>
        outcome.status === 'rejected' ? [outcome.reason] : [],
      );
      expect(created).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toBeInstanceOf(IdempotencyError);
      expect(refused[0].code).toBe('idempotency_key_in_use');
    });

    it('times out a slow attempt, retries it, and throws a TimeoutError', async () => {
      const { client, log, controls } = setUp();
      await controls.setFaults({ latency_ms: 1_000 });
      const error = await runOnFakeTime(
        client.payments.list(undefined, { timeout: 150, maxRetries: 1 }).catch((caught) => caught),
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.attempts).toBe(2);
      expect(log.map((entry) => entry.code)).toEqual(['timeout', 'timeout']);
    });

    it('aborts a request in flight at once', async () => {
      const { client, controls } = setUp();
      await controls.setFaults({ latency_ms: 2_000 });
      const controller = new AbortController();
      const pending = client.payments.list(undefined, { signal: controller.signal });
      // Fake time stands still: unaborted, the list would wait for its 2 s latency forever, so
      // the rejection is the proof that the abort ended it.
      await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      await expect(pending).rejects.toBeInstanceOf(AbortedError);
    });

    it('aborts a pending retry: nothing more is sent', async () => {
      const { apiKey, controls } = setUp();
      await controls.setFaults({ fail_next: { count: 3, status: 429, retry_after: 30 } });
      const controller = new AbortController();
      let firstAnswered: () => void = () => {};
      const answered = new Promise<void>((resolve) => {
        firstAnswered = resolve;
      });
      const log: RequestLogEntry[] = [];
      const logged = ctx.client(apiKey, {
        logger: (entry) => {
          log.push(entry);
          firstAnswered();
        },
      });
      const pending = logged.payments.list(undefined, { signal: controller.signal });
      await answered;
      // The retry now waits 30 s (Retry-After) of fake time, which does not move: only the abort ends it.
      controller.abort();
      await expect(pending).rejects.toBeInstanceOf(AbortedError);
      expect(log.map((entry) => entry.status)).toEqual([429]);
      expect((await controls.getFaults()).fail_next?.count).toBe(2);
    });
  });
});
