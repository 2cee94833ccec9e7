import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, mockServerOf } from '../app/mock-server.js';
import { createRuntime, type Runtime } from '../app/runtime.js';
import type { AccountService } from '../service/account-service.js';
import { asyncStore } from '../test-support/async-store.js';
import { manualClock } from '../test-support/harness.js';

const key = 'sk_test_pipeline_order_1';
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const payment = JSON.stringify({
  amount: 1000,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_success' },
});

let runtime: Runtime | undefined;
afterEach(() => {
  runtime?.close();
  runtime = undefined;
});

/** A mock on the memory store, recording what each request's store session is asked to read. */
function serve(): { mock: MockServer; service: AccountService; asked: unknown[][] } {
  const built = createRuntime({ clock: manualClock() });
  runtime = built;
  const asked: unknown[][] = [];
  const real = built.serviceFor.bind(built);
  built.serviceFor = (apiKey) => {
    const service = real(apiKey);
    const within = service.withSession.bind(service);
    service.withSession = (post, request, paymentId, work) => {
      asked.push([post, request, paymentId]);
      return within(post, request, paymentId, work);
    };
    return service;
  };
  return { mock: mockServerOf(built), service: built.serviceFor(key), asked };
}

async function code(response: Response): Promise<string> {
  return ((await response.json()) as { code: string }).code;
}

describe('the order of the steps', () => {
  it('authenticates before the faults, the id, the body and its check', async () => {
    const { mock, service } = serve();
    await service.faults.set({ fail_next: { count: 1, status: 503 } });
    const unauthenticated = await mock.fetch('/v1/payments/%00/capture', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount":',
    });
    expect(unauthenticated.status).toBe(401);
    expect((await service.faults.get()).fail_next?.count).toBe(1);
  });

  it('answers an id of no possible form before the faults', async () => {
    const { mock, service } = serve();
    await service.faults.set({ fail_next: { count: 1, status: 503 } });
    const response = await mock.fetch(`/v1/payments/${'p'.repeat(300)}`, { headers });
    expect(response.status).toBe(404);
    expect((await service.faults.get()).fail_next?.count).toBe(1);
  });

  it('answers the faults before the body’s problems, recording no body', async () => {
    const { mock, service } = serve();
    await service.faults.set({ fail_next: { count: 1, status: 503 } });
    const init = { method: 'POST', headers, body: '{"amount":' };
    const failed = await mock.fetch('/v1/payments', init);
    expect(failed.status).toBe(503);
    const refused = await mock.fetch('/v1/payments', init);
    expect(refused.status).toBe(400);
    expect(await code(refused)).toBe('invalid_json');
    const { requests } = await service.inspector.get();
    expect(requests.map((request) => [request.status, request.request_body])).toEqual([
      [400, '{"amount":'],
      [503, null],
    ]);
  });

  it('lists a bad Idempotency-Key header with the body’s problems, first', async () => {
    const { mock } = serve();
    const response = await mock.fetch('/v1/payments', {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': '' },
      body: JSON.stringify({ amount: 1000 }),
    });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: { param: string }[] };
    expect(problem.errors[0]?.param).toBe('Idempotency-Key');
    expect(problem.errors.length).toBeGreaterThan(1);
  });

  it('reads the body once and serves a create, its replay and a retrieve', async () => {
    const { mock } = serve();
    const init = {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': 'k1' },
      body: payment,
    };
    const created = await mock.fetch('/v1/payments', init);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const replayed = await mock.fetch('/v1/payments', init);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    const retrieved = await mock.fetch(`/v1/payments/${id}`, { headers });
    expect(retrieved.status).toBe(200);
  });
});

describe('the store session', () => {
  it('asks a valid POST’s key and room ahead, once, before the faults', async () => {
    const { mock, service, asked } = serve();
    await service.faults.set({ fail_next: { count: 1, status: 503 } });
    const response = await mock.fetch('/v1/payments', {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': 'k1' },
      body: payment,
    });
    expect(response.status).toBe(503);
    expect(asked).toEqual([
      [
        true,
        expect.objectContaining({
          key: 'k1',
          method: 'POST',
          path: '/v1/payments',
          bodyText: payment,
        }),
        undefined,
      ],
    ]);
  });

  it('only finds the account for a POST it will refuse (nothing claimed)', async () => {
    const { mock, asked } = serve();
    const response = await mock.fetch('/v1/payments', {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': 'k1' },
      body: JSON.stringify({ amount: -1 }),
    });
    expect(response.status).toBe(400);
    expect(asked).toEqual([[false, undefined, undefined]]);
  });

  it('reads a payment’s path with the account, and opens no session for a sandbox control', async () => {
    const { mock, asked } = serve();
    expect((await mock.fetch('/v1/payments/pay_missing', { headers })).status).toBe(404);
    expect((await mock.fetch('/_sandbox/faults', { headers })).status).toBe(200);
    expect((await mock.fetch('/v1/payments', { headers })).status).toBe(200);
    expect(asked).toEqual([
      [false, undefined, 'pay_missing'],
      [false, undefined, undefined],
    ]);
  });

  it('opens none before auth or the path’s id answer', async () => {
    const { mock, asked } = serve();
    expect((await mock.fetch('/v1/payments', { method: 'POST', body: payment })).status).toBe(401);
    expect((await mock.fetch('/v1/payments/%00', { headers })).status).toBe(404);
    expect(asked).toEqual([]);
  });
});

describe('when a request is answered', () => {
  /** A retrieve of a payment made first, through `app.fetch` (what @hono/node-server calls). */
  async function retrieveOn(seam?: typeof asyncStore) {
    const lines: string[] = [];
    const built = createRuntime(
      { clock: manualClock(), logger: (line) => lines.push(line) },
      seam === undefined ? {} : { seam },
    );
    runtime = built;
    const mock = mockServerOf(built);
    const created = await mock.fetch('/v1/payments', { method: 'POST', headers, body: payment });
    const { id } = (await created.json()) as { id: string };
    const request = new Request(`http://localhost/v1/payments/${id}`, { headers });
    const answering = mock.app.fetch(request, { inProcess: true, dropped: false });
    const response = await answering;
    const inspector = await built.serviceFor(key).inspector.get();
    runtime.close();
    runtime = undefined;
    return { answering, response, id, lines, inspector };
  }

  it('answers a retrieve on the memory store at once (its session read the payment), observed as ever', async () => {
    const { answering, response, id, lines, inspector } = await retrieveOn();
    // Not a promise: @hono/node-server writes an answer made at once without waiting a tick.
    expect(answering).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: string }).id).toBe(id);
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect(lines.at(-1)).toContain(`GET /v1/payments/${id} 200`);
    expect(inspector.requests[0]?.path).toBe(`/v1/payments/${id}`);
  });

  it('answers the same retrieve through a promise on a store that answers later, the same way', async () => {
    const memory = await retrieveOn();
    const later = await retrieveOn(asyncStore);
    expect(later.answering).toBeInstanceOf(Promise);
    expect(later.response.status).toBe(memory.response.status);
    expect(later.lines.at(-1)).toContain(`GET /v1/payments/${later.id} 200`);
    expect(later.inspector.requests.map((entry) => [entry.method, entry.status])).toEqual(
      memory.inspector.requests.map((entry) => [entry.method, entry.status]),
    );
  });
});

describe('a full sandbox', () => {
  it('keeps no account for the keys whose POSTs it refused (503 sandbox_full)', async () => {
    const built = createRuntime({
      clock: manualClock(),
      limits: { memoryBudgetBytes: 65_536, keyMemoryBudgetBytes: 262_144 },
    });
    runtime = built;
    const mock = mockServerOf(built);
    const post = (apiKey: string, path: string, more: Record<string, string> = {}) =>
      mock.fetch(`http://localhost${path}`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${apiKey}`, ...more },
        body: path === '/v1/payments' ? payment : '{}',
      });
    let status = 201;
    for (let i = 0; i < 200 && status === 201; i++)
      status = (await post(key, '/v1/payments')).status;
    expect(status).toBe(503);
    const refused = [
      ['sk_test_refused_create_1', '/v1/payments', {}],
      ['sk_test_refused_capture_1', '/v1/payments/pay_1/capture', {}],
      ['sk_test_refused_keyed_1', '/v1/payments', { 'idempotency-key': 'order-1' }],
    ] as const;
    for (const [apiKey, path, more] of refused) {
      const answer = await post(apiKey, path, more);
      expect(answer.status).toBe(503);
      expect(await code(answer)).toBe('sandbox_full');
      // The session opened its account (a write): nothing was done, so it goes again.
      expect(await built.state.store.find(apiKey)).toBeUndefined();
    }
  });
});
