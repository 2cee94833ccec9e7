// Random hostile bodies, up to the size limit, at every operation of both specs: never a 5xx, every
// problem within MAX_PROBLEM_BYTES, every answer within the largest a list of payments can be.
import { openapiDocument, sandboxDocument } from '@payment-service/openapi';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PROBLEM_BYTES } from '../shared/problems.js';
import { manualClock } from '../test-support/harness.js';
import { createMockServer } from './mock-server.js';
import { DEFAULT_MAX_BODY_BYTES } from './options.js';

/** How many random bodies each operation gets; `PROPERTY_RUNS` raises it for a longer soak. */
const runs = Number(process.env.PROPERTY_RUNS ?? 40);

/** The largest answer of any operation: a page of 100 payments with the longest descriptions. */
const MAX_ANSWER_BYTES = 700_000;

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

/** Every operation of a spec document, its `{id}` filled with a hostile id. */
function operations(document: { paths: Record<string, object> }): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      if (Reflect.get(item, method) !== undefined) found.push([method.toUpperCase(), path]);
    }
  }
  return found;
}

const anyText = fc.string({ unit: 'binary', maxLength: 300 });
/** Bodies that made the sandbox work hard or answer big: many members, items, depth, odd text. */
const hostileBody: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 8 }).map((value) => JSON.stringify(value)),
  fc
    .dictionary(anyText, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3000 })
    .map((value) => JSON.stringify(value)),
  fc
    .array(anyText, { maxLength: 6000 })
    .map((events) => JSON.stringify({ url: 'http://127.0.0.1:9/h', events })),
  fc
    .record({ amount: fc.jsonValue(), currency: anyText, payment_method: fc.jsonValue() })
    .chain((base) =>
      fc
        .dictionary(anyText, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 40 })
        .map((extra) => JSON.stringify({ ...extra, ...base })),
    ),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.string({ unit: 'binary', maxLength: 2000 }),
);

const idempotencyKey = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);

const withinLimit = (body: string) => body.slice(0, DEFAULT_MAX_BODY_BYTES / 3);

describe.each([
  ['the API', openapiDocument],
  ['the sandbox controls', sandboxDocument],
])('hostile bodies at every operation of %s', (_name, document) => {
  it.each(operations(document))('%s %s', async (method, path) => {
    const mock = createMockServer({ clock: manualClock() });
    try {
      await fc.assert(
        fc.asyncProperty(hostileBody, anyText, idempotencyKey, async (body, id, key) => {
          const target = path.replace('{id}', encodeURIComponent(id || 'x'));
          const response = await mock.fetch(`http://sandbox.test${target}`, {
            method,
            headers: {
              authorization: 'Bearer sk_test_hostile_bodies',
              'content-type': 'application/json',
              'idempotency-key': key,
            },
            body: method === 'GET' ? null : withinLimit(body),
          });
          const bytes = new Uint8Array(await response.arrayBuffer()).length;
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) expect(bytes).toBeLessThanOrEqual(MAX_PROBLEM_BYTES);
          expect(bytes).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
        }),
        { numRuns: runs },
      );
    } finally {
      mock.close();
    }
  });
});

describe('the largest answers', () => {
  it('a page of 100 payments with the longest, most escaped descriptions stays within its bound', async () => {
    const mock = createMockServer({ clock: manualClock() });
    const headers = {
      authorization: 'Bearer sk_test_largest_answer',
      'content-type': 'application/json',
    };
    // 1,000 characters that JSON escapes to six bytes each: the longest payment there is.
    const description = '\u0001'.repeat(1000);
    for (let index = 0; index < 100; index++) {
      const created = await mock.fetch('http://sandbox.test/v1/payments', {
        method: 'POST',
        headers,
        body: JSON.stringify({
          amount: 1,
          currency: 'KZT',
          description,
          payment_method: { type: 'token', token: 'tok_test_insufficient_funds' },
        }),
      });
      expect(created.status).toBe(201);
    }
    const page = await mock.fetch('http://sandbox.test/v1/payments?limit=100', { headers });
    const bytes = new Uint8Array(await page.arrayBuffer()).length;
    expect(bytes).toBeGreaterThan(600_000);
    expect(bytes).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    mock.close();
  });

  it("the console's inspector with the longest requests and payments stays under 1 MiB", async () => {
    const mock = createMockServer({ clock: manualClock() });
    const headers = {
      authorization: 'Bearer sk_test_largest_inspector',
      'content-type': 'application/json',
    };
    const call = (path: string, method: string, body?: string) =>
      mock.fetch(`http://sandbox.test${path}`, { method, headers, body: body ?? null });
    const description = '\u0001'.repeat(1000);
    for (let index = 0; index < 50; index++) {
      const body = JSON.stringify({
        amount: 1,
        currency: 'KZT',
        description,
        payment_method: { type: 'token', token: 'tok_test_success' },
      });
      expect((await call('/v1/payments', 'POST', body)).status).toBe(201);
    }
    // Bodies of characters JSON escapes to six bytes, and the largest answers, both recorded.
    for (let index = 0; index < 25; index++)
      await call('/v1/payments', 'POST', `"${'\u0001'.repeat(5000)}`);
    for (let index = 0; index < 25; index++) await call('/v1/payments?limit=100', 'GET');
    const inspector = await call('/_sandbox/inspector', 'GET');
    expect(inspector.status).toBe(200);
    expect(new Uint8Array(await inspector.arrayBuffer()).length).toBeLessThan(1024 * 1024);
    mock.close();
  });
});
