import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeHooks } from './app/runtime.js';
import { createSandboxControls, SandboxControlError } from './controls.js';
import { MAX_HELD_REQUESTS_PER_KEY } from './shared/faults.js';
import { STORES, storeTicks } from './test-support/async-store.js';
import { createHarness, TEST_KEY, validCreateBody } from './test-support/harness.js';

afterEach(() => {
  vi.useRealTimers();
});

function setup(hooks: RuntimeHooks, options: Parameters<typeof createHarness>[0] = {}) {
  const harness = createHarness(options, hooks);
  const controls = createSandboxControls({
    baseUrl: 'http://sandbox.test',
    apiKey: TEST_KEY,
    fetch: harness.mock.fetch,
  });
  return { ...harness, controls };
}

for (const { name: store, hooks } of STORES) {
  describe(store, () => {
    describe('sandbox clock', () => {
      it('reads and advances the key clock, settling pending payments', async () => {
        const { controls, createPayment, json } = setup(hooks, { settlementDelaySeconds: 30 });
        expect(await controls.getClock()).toEqual({
          object: 'sandbox_clock',
          now: '2025-01-15T12:00:00Z',
          offset_seconds: 0,
          settled_payments: 0,
        });
        const pending = await createPayment({
          payment_method: { type: 'token', token: 'tok_test_pending' },
        });
        await createPayment({
          payment_method: { type: 'token', token: 'tok_test_pending_declined' },
        });
        expect((await controls.advanceClock(29)).settled_payments).toBe(0);
        const advanced = await controls.advanceClock(1);
        expect(advanced).toMatchObject({
          now: '2025-01-15T12:00:30Z',
          offset_seconds: 30,
          settled_payments: 2,
        });
        expect((await json('GET', `/v1/payments/${pending.id}`)).body.status).toBe('SUCCEEDED');
        // New payments are stamped with the key's clock.
        const later = await createPayment();
        expect(later.created_at).toBe('2025-01-15T12:00:30Z');
      });

      it('keeps other keys on their own clock', async () => {
        const { controls, mock } = setup(hooks);
        await controls.advanceClock(3600);
        const other = createSandboxControls({
          baseUrl: 'http://sandbox.test',
          apiKey: 'sk_test_other_clock_1',
          fetch: mock.fetch,
        });
        expect((await other.getClock()).offset_seconds).toBe(0);
      });

      it('validates the advance body with the sandbox spec', async () => {
        const { controls, json } = setup(hooks);
        await expect(controls.advanceClock(-1)).rejects.toThrow(SandboxControlError);
        const invalid = await json('POST', '/_sandbox/clock/advance', { body: { seconds: 'ten' } });
        expect(invalid.status).toBe(400);
        expect(invalid.body.param).toBe('seconds');
        const extra = await json('POST', '/_sandbox/clock/advance', { body: { seconds: 1, x: 1 } });
        expect(extra.body.errors[0].code).toBe('unknown_field');
      });
    });

    describe('sandbox reset', () => {
      it('deletes the key payments, records, faults and clock offset', async () => {
        const { controls, createPayment, json } = setup(hooks);
        await createPayment();
        await createPayment({}, { headers: { 'idempotency-key': 'r1' } });
        await controls.setFaults({ latency_ms: 1 });
        await controls.advanceClock(10);
        expect(await controls.reset()).toEqual({ object: 'sandbox_reset', deleted_payments: 2 });
        expect((await json('GET', '/v1/payments')).body.data).toEqual([]);
        expect(await controls.getFaults()).toEqual({});
        expect((await controls.getClock()).offset_seconds).toBe(0);
        const again = await json('POST', '/v1/payments', {
          body: validCreateBody,
          headers: { 'idempotency-key': 'r1' },
        });
        expect(again.headers.get('idempotent-replayed')).toBeNull();
        expect(await controls.reset()).toEqual({ object: 'sandbox_reset', deleted_payments: 1 });
      });

      it('requires a test key and has Request-Id', async () => {
        const { call } = setup(hooks);
        const response = await call('POST', '/_sandbox/reset', { apiKey: null });
        expect(response.status).toBe(401);
        expect(response.headers.get('request-id')).toMatch(/^req_/);
        const ok = await call('POST', '/_sandbox/reset');
        expect(ok.headers.get('request-id')).toMatch(/^req_/);
      });
    });

    describe('faults', () => {
      it('sets, reads and clears faults', async () => {
        const { controls } = setup(hooks);
        const faults = {
          latency_ms: 5,
          fail_next: { count: 2, status: 503 as const },
          drop_after_commit: { count: 1 },
        };
        expect(await controls.setFaults(faults)).toEqual(faults);
        expect(await controls.getFaults()).toEqual(faults);
        expect(await controls.clearFaults()).toEqual({});
        expect(await controls.getFaults()).toEqual({});
      });

      it('rejects invalid faults with the status enum', async () => {
        const { controls } = setup(hooks);
        const error = await controls
          .setFaults({ fail_next: { count: 1, status: 418 as 503 } })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(SandboxControlError);
        expect((error as SandboxControlError).status).toBe(400);
        expect((error as SandboxControlError).code).toBe('invalid_request');
      });

      it('fails the next N /v1 requests without changing data, then recovers', async () => {
        const { controls, json, call } = setup(hooks);
        await controls.setFaults({ fail_next: { count: 2, status: 429, retry_after: 3 } });
        const first = await json('POST', '/v1/payments', { body: validCreateBody });
        expect(first.status).toBe(429);
        expect(first.body.code).toBe('rate_limited');
        expect(first.headers.get('retry-after')).toBe('3');
        expect(first.headers.get('content-type')).toBe('application/problem+json');
        expect((await controls.getFaults()).fail_next?.count).toBe(1);
        // Controls are not affected by faults.
        const second = await call('GET', '/v1/payments');
        expect(second.status).toBe(429);
        const third = await json('GET', '/v1/payments');
        expect(third.status).toBe(200);
        expect(third.body.data).toEqual([]);
      });

      it('does not store a failed request under its Idempotency-Key', async () => {
        const { controls, json } = setup(hooks);
        await controls.setFaults({ fail_next: { count: 1, status: 500 } });
        const failed = await json('POST', '/v1/payments', {
          body: validCreateBody,
          headers: { 'idempotency-key': 'retry-me' },
        });
        expect(failed.status).toBe(500);
        expect(failed.body.code).toBe('internal_error');
        const retried = await json('POST', '/v1/payments', {
          body: validCreateBody,
          headers: { 'idempotency-key': 'retry-me' },
        });
        expect(retried.status).toBe(201);
        expect(retried.headers.get('idempotent-replayed')).toBeNull();
      });

      it.each([
        [502, 'bad_gateway'],
        [503, 'service_unavailable'],
        [504, 'gateway_timeout'],
      ] as const)('answers %i as %s', async (status, code) => {
        const { controls, json } = setup(hooks);
        await controls.setFaults({ fail_next: { count: 1, status } });
        const failed = await json('GET', '/v1/payments');
        expect(failed.status).toBe(status);
        expect(failed.body.code).toBe(code);
      });

      it('drops the response after commit in process with TypeError fetch failed', async () => {
        const { controls, call, json } = setup(hooks);
        await controls.setFaults({ drop_after_commit: { count: 1 } });
        const dropped = call('POST', '/v1/payments', {
          body: validCreateBody,
          headers: { 'idempotency-key': 'lost' },
        });
        await expect(dropped).rejects.toThrow(new TypeError('fetch failed'));
        const list = await json('GET', '/v1/payments');
        expect(list.body.data).toHaveLength(1);
        const retried = await json('POST', '/v1/payments', {
          body: validCreateBody,
          headers: { 'idempotency-key': 'lost' },
        });
        expect(retried.status).toBe(201);
        expect(retried.headers.get('idempotent-replayed')).toBe('true');
        expect(retried.body.id).toBe(list.body.data[0].id);
      });

      it('does not drop GET requests', async () => {
        const { controls, json } = setup(hooks);
        await controls.setFaults({ drop_after_commit: { count: 1 } });
        expect((await json('GET', '/v1/payments')).status).toBe(200);
        expect((await controls.getFaults()).drop_after_commit?.count).toBe(1);
      });

      it('adds latency to /v1 responses (on injected time)', async () => {
        const { controls, call } = setup(hooks);
        await controls.setFaults({ latency_ms: 60 });
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        let answered = false;
        const pending = call('GET', '/v1/payments').then((response) => {
          answered = true;
          return response;
        });
        await storeTicks();
        await vi.advanceTimersByTimeAsync(59);
        expect(answered).toBe(false);
        await storeTicks();
        await vi.advanceTimersByTimeAsync(1);
        expect((await pending).status).toBe(200);
      });

      it(`holds at most ${MAX_HELD_REQUESTS_PER_KEY} requests of a key on its latency, even across resets`, async () => {
        const { controls, call, json } = setup(hooks);
        await controls.setFaults({ latency_ms: 60_000 });
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        const held = Array.from({ length: MAX_HELD_REQUESTS_PER_KEY }, () =>
          call('GET', '/v1/payments'),
        );
        await storeTicks();
        await vi.advanceTimersByTimeAsync(5);
        const refused = await json('GET', '/v1/payments');
        expect(refused.status).toBe(429);
        expect(refused.body.code).toBe('rate_limited');
        expect(refused.headers.get('retry-after')).toBe('60');
        // A reset does not end the waits, so it frees no slot either.
        await controls.reset();
        await controls.setFaults({ latency_ms: 60_000 });
        expect((await json('GET', '/v1/payments')).status).toBe(429);
        // Another key is not held back by this one's waits.
        const other = call('GET', '/v1/payments', { apiKey: 'sk_test_another_key_01' });
        expect((await other).status).toBe(200);
        await storeTicks();
        await vi.advanceTimersByTimeAsync(60_000);
        expect((await Promise.all(held)).map((response) => response.status)).toEqual(
          held.map(() => 200),
        );
        const again = call('GET', '/v1/payments');
        await storeTicks();
        await vi.advanceTimersByTimeAsync(60_000);
        expect((await again).status).toBe(200);
      });

      it('ends pending latency when the server closes', async () => {
        const { controls, call, mock } = setup(hooks);
        await controls.setFaults({ latency_ms: 60_000 });
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        const pending = call('GET', '/v1/payments');
        await storeTicks();
        await vi.advanceTimersByTimeAsync(5); // the request is now waiting out its latency
        mock.close();
        expect((await pending).status).toBe(200);
      });
    });
  });
}
