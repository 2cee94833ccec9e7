import { describe, expect, it, vi } from 'vitest';
import { createHarness, TEST_KEY, validCreateBody } from '../test-support/harness.js';
import { spyOnResponseClone } from '../test-support/response-clone.js';

describe('eviction over HTTP', () => {
  it('keeps at most maxPaymentsPerKey payments, evicting the oldest', async () => {
    const { createPayment, json } = createHarness({ maxPaymentsPerKey: 3 });
    const ids = [];
    for (let index = 0; index < 5; index++) ids.push((await createPayment()).id);
    const list = await json('GET', '/v1/payments');
    expect(list.body.data.map((payment: { id: string }) => payment.id)).toEqual(
      ids.slice(2).reverse(),
    );
    expect((await json('GET', `/v1/payments/${ids[0]}`)).status).toBe(404);
  });
});

describe('never a 5xx for client input', () => {
  const bodies: unknown[] = [
    null,
    [],
    'text',
    42,
    true,
    {},
    { amount: null },
    {
      amount: '1000',
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_success' },
    },
    {
      amount: 1e300,
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_success' },
    },
    { amount: -1, currency: 'KZT', payment_method: { type: 'token', token: 'tok_test_success' } },
    { amount: 1000, currency: 'KZT', payment_method: null },
    { amount: 1000, currency: 'KZT', payment_method: [] },
    { amount: 1000, currency: 'KZT', payment_method: { type: 'token', token: '' } },
    { amount: 1000, currency: 'KZT', payment_method: { type: 'token', token: 42 } },
    { amount: 1000, currency: 'KZT', payment_method: { type: 'token', token: 'x'.repeat(300) } },
    { ...validCreateBody, description: 'x'.repeat(1001) },
    { ...validCreateBody, description: '\u0000\uffff😀' },
    { ...validCreateBody, __proto__: { polluted: true } },
    JSON.parse('{"__proto__": {"amount": 1}, "constructor": {"prototype": {}}}'),
    { ...validCreateBody, 'a/b~c': 1 },
  ];
  const rawBodies = [
    '',
    ' ',
    '{',
    '}',
    'nul',
    '[1,2',
    '{"amount": 1e999}',
    '\u00ff\u00fe',
    '{"a":'.repeat(5000),
    '['.repeat(10000) + ']'.repeat(10000),
  ];
  const paths = [
    '/v1/payments',
    '/v1/payments/pay_x/capture',
    '/v1/payments/pay_x/refunds',
    '/v1/payments/pay_x/cancel',
    '/v1/payments/%E0%A4%A/capture',
    '/v1/payments/%2F..%2F/refunds',
    '/_sandbox/clock/advance',
    '/_sandbox/faults',
  ];

  it('answers 4xx problems with Request-Id for malformed input', async () => {
    const { call } = createHarness();
    for (const path of paths) {
      const method = path === '/_sandbox/faults' ? 'PUT' : 'POST';
      const requests = [
        ...bodies.map((body) => ({
          rawBody: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        })),
        ...rawBodies.map((rawBody) => ({
          rawBody,
          headers: { 'content-type': 'application/json' },
        })),
        { rawBody: '{}', headers: { 'content-type': 'application/json; charset=latin1' } },
        { rawBody: '{}', headers: { 'content-type': ';;;=' } },
        { rawBody: '{}', headers: { 'content-type': 'application/json', 'idempotency-key': ' ' } },
      ];
      for (const request of requests) {
        const response = await call(method, path, request);
        const text = await response.text();
        expect(response.status, `${method} ${path} ${request.rawBody.slice(0, 40)}`).toBeLessThan(
          500,
        );
        expect(response.headers.get('request-id')).toMatch(/^req_/);
        if (response.status >= 400) {
          expect(response.headers.get('content-type')).toBe('application/problem+json');
          expect(JSON.parse(text).code).toMatch(/^[a-z_]+$/);
        }
      }
    }
  });

  it('handles odd methods, headers and query strings', async () => {
    const { call } = createHarness();
    const cases: [string, string, Record<string, string>][] = [
      ['GET', '/v1/payments?limit=10&limit=20', {}],
      ['GET', '/v1/payments?starting_after=%ZZ', {}],
      ['GET', '/v1/payments?limit=99999999999999999999', {}],
      ['OPTIONS', '/v1/payments', {}],
      ['PUT', '/v1/payments/x', {}],
      ['GET', '/v1/payments/%', {}],
      ['GET', '/v1//payments', {}],
      ['GET', '/v1/payments', { authorization: 'Bearer  sk_test_12345678' }],
      ['GET', '/v1/payments', { authorization: 'Bearer sk_test_12345678 extra' }],
      ['GET', '/v1/payments', { authorization: 'Bearer\tsk_test_12345678' }],
      ['POST', '/_sandbox/reset', { authorization: 'Token abc' }],
    ];
    for (const [method, path, headers] of cases) {
      const response = await call(method, path, { headers });
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
      expect(response.headers.get('request-id')).toMatch(/^req_/);
    }
  });
});

describe('logging', () => {
  it('logs one line per request without the API key', async () => {
    const lines: string[] = [];
    const { call } = createHarness({ logger: (line) => lines.push(line) });
    // The code comes from the text the mock answered with, not from a copy of the Response.
    const clone = spyOnResponseClone();
    try {
      await call('GET', '/v1/payments');
      await call('GET', '/v1/payments/sk_test_leakedkey123');
      await call('GET', '/v1/payments', { apiKey: 'sk_live_LIVESECRET99' });
      expect(clone).not.toHaveBeenCalled();
    } finally {
      clone.mockRestore();
    }
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\S+Z GET \/v1\/payments 200 \d+ms req_[A-Za-z0-9]+$/);
    // A 4xx/5xx line carries the problem code.
    expect(lines[1]).toMatch(/ GET \/v1\/payments\/sk_test_… 404 not_found \d+ms req_/);
    expect(lines[2]).toMatch(/ 401 live_key_in_sandbox \d+ms req_/);
    const text = lines.join('\n');
    expect(text).not.toContain('harness_key');
    expect(text).not.toContain('leakedkey123');
    expect(text).not.toContain('LIVESECRET99');
  });

  it('logs no key or signing secret a client wrote in the path with percent-escapes', async () => {
    const lines: string[] = [];
    const { call } = createHarness({ logger: (line) => lines.push(line) });
    const escapeAll = (text: string) =>
      [...text].map((character) => `%${character.charCodeAt(0).toString(16)}`).join('');
    await call('GET', '/v1/payments/sk%5Ftest%5FleakedKey123');
    await call('GET', '/v1/payments/sk%5Flive%5FLIVESECRET99');
    await call('GET', `/v1/payments/${escapeAll('sk_test_everyCharEscaped1')}`);
    await call('GET', '/v1/payments/sk%255Ftest%255FtwiceEscaped12');
    await call('DELETE', '/v1/webhook_endpoints/whsec%5Fc2VjcmV0c2VjcmV0%2Bw%3D%3D');
    await call('GET', '/nothing/here/sk_test_%6Ceaked%4Bey456');
    await call('GET', '/v1/payments/pay%20x%2Fy');
    expect(lines).toHaveLength(7);
    const text = lines.join('\n');
    for (const part of ['leaked', 'LIVESECRET', 'everyChar', '%65%76', 'twiceEscaped']) {
      expect(text).not.toContain(part);
    }
    for (const part of ['c2VjcmV0', '%6Ceaked', 'eaked']) expect(text).not.toContain(part);
    expect(lines[0]).toMatch(/ GET \/v1\/payments\/sk_test_… 404 not_found /);
    expect(lines[1]).toMatch(/ GET \/v1\/payments\/sk_live_… 404 not_found /);
    expect(lines[4]).toMatch(/ DELETE \/v1\/webhook_endpoints\/whsec_… 404 not_found /);
    // A path with no secret in it is logged as it was sent.
    expect(lines[6]).toMatch(/ GET \/v1\/payments\/pay%20x%2Fy 404 not_found /);
  });

  it('logs and answers no key glued after a word in the path, escaped or not', async () => {
    const lines: string[] = [];
    const { call } = createHarness({ logger: (line) => lines.push(line) });
    const answers: string[] = [];
    for (const path of [
      '/v1/payments/x_sk_test_gluedAfterUnderscore1',
      '/v1/payments/abcsk_live_gluedAfterLetter99',
      '/v1/payments/x%5Fsk%5Ftest%5FgluedAndEscaped1',
      '/v1/payments/task_test_runner',
    ]) {
      answers.push(await (await call('GET', path)).text());
    }
    const text = [...lines, ...answers].join('\n');
    for (const part of ['gluedAfter', 'gluedAndEscaped']) expect(text).not.toContain(part);
    expect(lines[0]).toMatch(/ GET \/v1\/payments\/x_sk_test_… 404 not_found /);
    expect(lines[1]).toMatch(/ GET \/v1\/payments\/abcsk_live_… 404 not_found /);
    expect(lines[2]).toMatch(/ GET \/v1\/payments\/x%5Fsk_test_… 404 not_found /);
    // A word that holds `sk_` is no key: logged as sent.
    expect(lines[3]).toMatch(/ GET \/v1\/payments\/task_test_runner 404 not_found /);
  });

  it('answers as usual when the logger throws: a request never fails because its line could not be written', async () => {
    let lines = 0;
    const { json } = createHarness({
      logger: () => {
        lines++;
        throw new Error('the log is gone');
      },
    });
    const keyed = { body: validCreateBody, headers: { 'idempotency-key': 'logger-throws' } };
    const created = await json('POST', '/v1/payments', keyed);
    expect(created.status).toBe(201);
    const replayed = await json('POST', '/v1/payments', keyed);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect((await json('GET', `/v1/payments/${created.body.id}`)).status).toBe(200);
    expect((await json('GET', '/v1/payments/pay_none')).status).toBe(404);
    expect((await json('PUT', '/v1/payments')).status).toBe(405);
    expect((await json('GET', '/nothing')).status).toBe(404);
    // Each /v1 request's record is kept although its line was not (405 and 404 have none).
    const inspector = await json('GET', '/_sandbox/inspector');
    expect(inspector.status).toBe(200);
    expect(inspector.body.requests).toHaveLength(4);
    expect(lines).toBe(7);
  });

  it('delivers webhooks as usual when the logger throws, with no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const received: string[] = [];
      const { json, mock } = createHarness({
        logger: () => {
          throw new Error('the log is gone');
        },
        webhookFetch: async (url) => {
          received.push(url);
          return new Response('ok');
        },
      });
      const hook = { body: { url: 'https://receiver.example/hooks' } };
      expect((await json('POST', '/v1/webhook_endpoints', hook)).status).toBe(201);
      for (let index = 0; index < 3; index++) {
        expect((await json('POST', '/v1/payments', { body: validCreateBody })).status).toBe(201);
      }
      await mock.webhooksSettled();
      // Rejections are reported after the microtasks that made them: one macrotask later.
      await new Promise((resolve) => setImmediate(resolve));
      expect(received).toHaveLength(3);
      const deliveries = await json('GET', '/_sandbox/webhook_deliveries');
      expect(deliveries.body.data.map((entry: { status: number }) => entry.status)).toEqual([
        200, 200, 200,
      ]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('logs and records a 400 without parsing the answer it built', async () => {
    const lines: string[] = [];
    const { call } = createHarness({ logger: (line) => lines.push(line) });
    const body: Record<string, unknown> = { ...validCreateBody };
    for (let index = 0; index < 30; index++) body[`unknown_${index}`] = index;
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const response = await call('POST', '/v1/payments', { body });
      expect(response.status).toBe(400);
      // The request body only: the log line and the inspector take the code from the answer.
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
    expect(lines[0]).toMatch(/ POST \/v1\/payments 400 invalid_request \d+ms req_/);
  });
});

describe('a client that goes away mid-body', () => {
  it('is logged and recorded as aborted, not as a 500', async () => {
    const lines: string[] = [];
    const { mock, json } = createHarness({ logger: (line) => lines.push(line) });
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) {
          controller.error(new Error('aborted'));
          return;
        }
        sent = true;
        controller.enqueue(new TextEncoder().encode('{"amount":'));
      },
    });
    const response = await mock.fetch(
      new Request('http://sandbox.test/v1/payments', {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBeLessThan(500);
    expect(lines[0]).toMatch(/ POST \/v1\/payments aborted \d+ms req_/);
    const inspector = await json('GET', '/_sandbox/inspector');
    expect(inspector.body.requests[0]).toMatchObject({ status: null, code: null });
  });
});

describe('errors never echo the key', () => {
  it('masks anything that looks like a key in problem details', async () => {
    const { call } = createHarness();
    const response = await call('POST', '/v1/payments', {
      body: { ...validCreateBody, payment_method: { type: 'token', token: 'sk_test_oopsmykey1' } },
    });
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text).not.toContain('oopsmykey1');
  });
});

describe('unexpected failures', () => {
  it('answers 500 internal_error without leaking internals', async () => {
    const { createMockServer } = await import('./mock-server.js');
    const mock = createMockServer({
      clock: {
        now() {
          throw new Error('database password is hunter2');
        },
      },
    });
    const response = await mock.fetch('/v1/payments', {
      headers: { authorization: 'Bearer sk_test_12345678' },
    });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect(JSON.parse(text).code).toBe('internal_error');
    expect(text).not.toContain('hunter2');
  });
});
