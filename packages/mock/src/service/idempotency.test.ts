import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandboxControls } from '../controls.js';
import { STORES, storeTicks } from '../test-support/async-store.js';
import { createHarness, TEST_KEY, validCreateBody } from '../test-support/harness.js';
import { bodyFingerprint, hashBody, sameBody } from './idempotency.js';

afterEach(() => {
  vi.useRealTimers();
});

function withKey(key: string, extra: Record<string, string> = {}) {
  return { headers: { 'idempotency-key': key, ...extra } };
}

describe('hashBody', () => {
  it('ignores key order and whitespace but not values', () => {
    expect(hashBody({ a: 1, b: { c: 2, d: 3 } })).toBe(hashBody({ b: { d: 3, c: 2 }, a: 1 }));
    expect(hashBody({ a: 1 })).not.toBe(hashBody({ a: 2 }));
    expect(hashBody(undefined)).not.toBe(hashBody({}));
  });

  it('hashes the canonical JSON that keys sorted as Array.prototype.sort sorts them give (records already stored keep matching)', () => {
    const sortedJson = (value: unknown): string => {
      if (value === null || typeof value !== 'object') return JSON.stringify(value);
      if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object).sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${sortedJson(object[key])}`).join(',')}}`;
    };
    const bodies = [
      {
        amount: 150_000,
        currency: 'KZT',
        capture: true,
        description: 'Order',
        payment_method: { type: 'token', token: 'tok_test_success' },
      },
      { '10': 1, '9': 2, '1': 3, b: [{ z: 1, a: 2 }], A: null, é: 'x', e: 'y', 'a b': 0, _: false },
      { z: { y: { x: { w: [3, 2, 1] } } }, y: '', x: [] },
    ];
    for (const body of bodies) {
      expect(hashBody(body)).toBe(
        createHash('sha256').update(sortedJson(body)).digest('base64url').slice(0, 22),
      );
    }
  });
});

describe('bodyFingerprint and sameBody', () => {
  const parse = (text: string) => [text, JSON.parse(text)] as const;

  it('keeps a body as a short hash, never its text', () => {
    const [text, body] = parse(JSON.stringify({ amount: 1000, description: 'x'.repeat(600) }));
    const fingerprint = bodyFingerprint(text, body);
    expect(fingerprint).toMatch(/^h[A-Za-z0-9_-]{22}$/);
    expect(sameBody(fingerprint, text, body)).toBe(true);
  });

  it('matches the same fields in another order or spacing, and not other values', () => {
    const fingerprint = bodyFingerprint(...parse('{"a":1,"b":{"c":2,"d":[3,4]}}'));
    expect(sameBody(fingerprint, ...parse('{ "b": { "d": [3, 4], "c": 2 }, "a": 1 }'))).toBe(true);
    expect(sameBody(fingerprint, ...parse('{"a":1,"b":{"c":2,"d":[4,3]}}'))).toBe(false);
    expect(sameBody(fingerprint, ...parse('{"a":"1","b":{"c":2,"d":[3,4]}}'))).toBe(false);
  });

  it('keeps a long body as a canonical hash, and still matches it in another order', () => {
    const long = 'x'.repeat(2000);
    const fingerprint = bodyFingerprint(...parse(JSON.stringify({ a: long, b: 1 })));
    expect(fingerprint).toBe(`h${hashBody({ b: 1, a: long })}`);
    expect(sameBody(fingerprint, ...parse(JSON.stringify({ b: 1, a: long })))).toBe(true);
    expect(sameBody(fingerprint, ...parse(JSON.stringify({ b: 2, a: long })))).toBe(false);
  });

  it('tells no body from an empty object', () => {
    const none = bodyFingerprint(undefined, undefined);
    expect(sameBody(none, undefined, undefined)).toBe(true);
    expect(sameBody(none, ...parse('{}'))).toBe(false);
    expect(sameBody(bodyFingerprint(...parse('{}')), undefined, undefined)).toBe(false);
  });
});

for (const { name: store, hooks } of STORES) {
  describe(store, () => {
    describe('Idempotency-Key', () => {
      it('replays the first response byte for byte with Idempotent-Replayed and a fresh Request-Id', async () => {
        const { call } = createHarness({}, hooks);
        const options = { body: validCreateBody, ...withKey('order-1') };
        const first = await call('POST', '/v1/payments', options);
        const firstText = await first.text();
        const replay = await call('POST', '/v1/payments', {
          // same fields, another order: the same request
          body: {
            payment_method: validCreateBody.payment_method,
            description: validCreateBody.description,
            currency: 'KZT',
            amount: 1000,
          },
          ...withKey('order-1'),
        });
        expect(replay.status).toBe(201);
        expect(await replay.text()).toBe(firstText);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(first.headers.get('idempotent-replayed')).toBeNull();
        expect(replay.headers.get('request-id')).not.toBe(first.headers.get('request-id'));
        const list = await (await call('GET', '/v1/payments')).json();
        expect(list.data).toHaveLength(1);
      });

      it('answers 422 for the same key with another body, path or method', async () => {
        const { json, createPayment } = createHarness({}, hooks);
        await json('POST', '/v1/payments', { body: validCreateBody, ...withKey('k1') });
        const otherBody = await json('POST', '/v1/payments', {
          body: { ...validCreateBody, amount: 2000 },
          ...withKey('k1'),
        });
        expect(otherBody.status).toBe(422);
        expect(otherBody.body.code).toBe('idempotency_key_reused');
        expect(otherBody.body.detail).toContain('differs in its body.');
        const authorized = await createPayment({ capture: false });
        const otherPath = await json('POST', `/v1/payments/${authorized.id}/cancel`, withKey('k1'));
        expect(otherPath.status).toBe(422);
        expect(otherPath.body.detail).toContain('differs in its path (/v1/payments), body.');
        // The 422 stored nothing: the payment is still AUTHORIZED.
        const after = await json('GET', `/v1/payments/${authorized.id}`);
        expect(after.body.status).toBe('AUTHORIZED');
      });

      it('keeps keys separate per API key', async () => {
        const { json } = createHarness({}, hooks);
        const a = await json('POST', '/v1/payments', {
          body: validCreateBody,
          ...withKey('shared'),
        });
        const b = await json('POST', '/v1/payments', {
          body: validCreateBody,
          ...withKey('shared'),
          apiKey: 'sk_test_someone_else_1',
        });
        expect(b.status).toBe(201);
        expect(b.headers.get('idempotent-replayed')).toBeNull();
        expect(b.body.id).not.toBe(a.body.id);
      });

      it('does not store validation failures, so a fixed request can reuse the key', async () => {
        const { json } = createHarness({}, hooks);
        const invalid = await json('POST', '/v1/payments', {
          body: { ...validCreateBody, amount: 0 },
          ...withKey('fix-me'),
        });
        expect(invalid.status).toBe(400);
        const unsupported = await json('POST', '/v1/payments', {
          rawBody: '{}',
          headers: { 'idempotency-key': 'fix-me', 'content-type': 'text/plain' },
        });
        expect(unsupported.status).toBe(415);
        const unauthorized = await json('POST', '/v1/payments', {
          body: validCreateBody,
          ...withKey('fix-me'),
          apiKey: null,
        });
        expect(unauthorized.status).toBe(401);
        const fixed = await json('POST', '/v1/payments', {
          body: validCreateBody,
          ...withKey('fix-me'),
        });
        expect(fixed.status).toBe(201);
        expect(fixed.headers.get('idempotent-replayed')).toBeNull();
      });

      it('does not store a refund refused for its amount, but stores 409 invalid_state', async () => {
        const { json, createPayment } = createHarness({}, hooks);
        const payment = await createPayment();
        const excess = await json('POST', `/v1/payments/${payment.id}/refunds`, {
          body: { amount: 5000 },
          ...withKey('refund-1'),
        });
        expect(excess.status).toBe(400);
        const fixed = await json('POST', `/v1/payments/${payment.id}/refunds`, {
          body: { amount: 5000 },
          ...withKey('refund-1'),
        });
        expect(fixed.headers.get('idempotent-replayed')).toBeNull();

        const declined = await createPayment({
          payment_method: { type: 'token', token: 'tok_test_declined' },
        });
        const conflict = await json(
          'POST',
          `/v1/payments/${declined.id}/capture`,
          withKey('cap-1'),
        );
        expect(conflict.status).toBe(409);
        const replayed = await json(
          'POST',
          `/v1/payments/${declined.id}/capture`,
          withKey('cap-1'),
        );
        expect(replayed.status).toBe(409);
        expect(replayed.headers.get('idempotent-replayed')).toBe('true');
        expect(replayed.body.request_id).toBe(conflict.body.request_id);
      });

      it('rejects an Idempotency-Key longer than 255 characters with param Idempotency-Key', async () => {
        const { json } = createHarness({}, hooks);
        const { status, body } = await json('POST', '/v1/payments', {
          body: validCreateBody,
          ...withKey('k'.repeat(256)),
        });
        expect(status).toBe(400);
        expect(body.param).toBe('Idempotency-Key');
        const longest = await json('POST', '/v1/payments', {
          body: validCreateBody,
          ...withKey('k'.repeat(255)),
        });
        expect(longest.status).toBe(201);
      });

      it('creates exactly one payment for 50 concurrent requests with one key', async () => {
        const { call, json } = createHarness({}, hooks);
        const responses = await Promise.all(
          Array.from({ length: 50 }, () =>
            call('POST', '/v1/payments', { body: validCreateBody, ...withKey('burst') }),
          ),
        );
        const bodies = await Promise.all(responses.map((response) => response.json()));
        const created = responses.filter((response) => response.status === 201);
        const inUse = responses.filter((response) => response.status === 409);
        expect(created.length + inUse.length).toBe(50);
        expect(new Set(bodies.filter((body) => body.id).map((body) => body.id)).size).toBe(1);
        const list = await json('GET', '/v1/payments');
        expect(list.body.data).toHaveLength(1);
      });

      it('answers 409 idempotency_key_in_use while the first request is in flight', async () => {
        const { call, json, mock } = createHarness({}, hooks);
        const controls = createSandboxControls({
          baseUrl: 'http://sandbox.test',
          apiKey: TEST_KEY,
          fetch: mock.fetch,
        });
        await controls.setFaults({ latency_ms: 50 });
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        const first = call('POST', '/v1/payments', { body: validCreateBody, ...withKey('slow') });
        await storeTicks(); // an asynchronous store answers on later ticks (not faked)
        await vi.advanceTimersByTimeAsync(10); // the first request holds the key, waiting out its latency
        // The second finds the key held at once; its answer, too, waits out the latency.
        const answer = json('POST', '/v1/payments', { body: validCreateBody, ...withKey('slow') });
        await storeTicks();
        await vi.advanceTimersByTimeAsync(50);
        const second = await answer;
        expect(second.status).toBe(409);
        expect(second.body.code).toBe('idempotency_key_in_use');
        expect((await first).status).toBe(201);
        await controls.clearFaults();
        const third = await json('POST', '/v1/payments', {
          body: validCreateBody,
          ...withKey('slow'),
        });
        expect(third.headers.get('idempotent-replayed')).toBe('true');
      });

      it('expires records after the TTL on the key sandbox clock', async () => {
        const { json, mock } = createHarness({ idempotencyTtlSeconds: 60 }, hooks);
        const controls = createSandboxControls({
          baseUrl: 'http://sandbox.test',
          apiKey: TEST_KEY,
          fetch: mock.fetch,
        });
        const first = await json('POST', '/v1/payments', {
          body: validCreateBody,
          ...withKey('ttl'),
        });
        await controls.advanceClock(59);
        const replay = await json('POST', '/v1/payments', {
          body: validCreateBody,
          ...withKey('ttl'),
        });
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        await controls.advanceClock(1);
        const fresh = await json('POST', '/v1/payments', {
          body: validCreateBody,
          ...withKey('ttl'),
        });
        expect(fresh.status).toBe(201);
        expect(fresh.headers.get('idempotent-replayed')).toBeNull();
        expect(fresh.body.id).not.toBe(first.body.id);
      });

      it('expires records of idle keys on the server clock', async () => {
        const { json, clock } = createHarness({ idempotencyTtlSeconds: 60 }, hooks);
        await json('POST', '/v1/payments', { body: validCreateBody, ...withKey('idle') });
        clock.advance(60_000);
        const again = await json('POST', '/v1/payments', {
          body: validCreateBody,
          ...withKey('idle'),
        });
        expect(again.headers.get('idempotent-replayed')).toBeNull();
      });
    });
  });
}
