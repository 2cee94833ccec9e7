import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createClient } from './client.js';
import {
  ConflictError,
  InvalidResponseError,
  NotFoundError,
  PaymentServiceError,
} from './errors.js';
import {
  createFetchStub,
  jsonResponse,
  paymentFixture,
  problemResponse,
  type StubAnswer,
} from './test-support/fetch-stub.js';
import { type HostileServer, startHostileServer } from './test-support/hostile-server.js';
import type { CreatePaymentParams, Payment, PaymentList } from './types.js';

const apiKey = 'sk_test_payments123';
const baseUrl = 'http://sandbox.test/';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const createParams: CreatePaymentParams = {
  amount: 150000,
  currency: 'KZT',
  capture: true,
  description: 'Order 1042',
  payment_method: { type: 'token', token: 'tok_test_success' },
};

function setup(answer: StubAnswer = () => jsonResponse(paymentFixture())) {
  const stub = createFetchStub(answer);
  const client = createClient({ apiKey, baseUrl, fetch: stub.fetch });
  return { client, requests: stub.requests };
}

describe('payments.create', () => {
  it('POSTs the params as JSON to /v1/payments with auth and an Idempotency-Key', async () => {
    const { client, requests } = setup(() => jsonResponse(paymentFixture(), 201));
    const payment = await client.payments.create(createParams);
    expectTypeOf(payment).toEqualTypeOf<Payment>();
    expect(payment).toEqual(paymentFixture());
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url.href).toBe('http://sandbox.test/v1/payments');
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${apiKey}`);
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(request?.headers.get('Accept')).toBe('application/json');
    expect(request?.headers.get('Idempotency-Key')).toMatch(uuidPattern);
    expect(JSON.parse(request?.body ?? '')).toEqual(createParams);
  });

  it('generates a new Idempotency-Key for each call', async () => {
    const { client, requests } = setup();
    await client.payments.create(createParams);
    await client.payments.create(createParams);
    const [first, second] = requests.map((request) => request.headers.get('Idempotency-Key'));
    expect(first).toMatch(uuidPattern);
    expect(second).toMatch(uuidPattern);
    expect(first).not.toBe(second);
  });

  it('sends the caller’s Idempotency-Key as-is, every time it is given', async () => {
    const { client, requests } = setup();
    await client.payments.create(createParams, { idempotencyKey: 'order-1042-attempt' });
    await client.payments.create(createParams, { idempotencyKey: 'order-1042-attempt' });
    expect(requests.map((request) => request.headers.get('Idempotency-Key'))).toEqual([
      'order-1042-attempt',
      'order-1042-attempt',
    ]);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['non-ASCII', 'ключ'],
  ])('rejects an %s Idempotency-Key before sending', async (_name, idempotencyKey) => {
    const { client, requests } = setup();
    await expect(client.payments.create(createParams, { idempotencyKey })).rejects.toThrow(
      /idempotencyKey must be 1 to 255 visible ASCII characters/,
    );
    expect(requests).toHaveLength(0);
  });

  it('accepts any 2xx and returns a FAILED payment (a decline) without throwing', async () => {
    const declined = paymentFixture({
      status: 'FAILED',
      failure_code: 'card_declined',
      failure_message: 'The card was declined.',
    });
    const { client } = setup(() => jsonResponse(declined, 202));
    await expect(client.payments.create(createParams)).resolves.toEqual(declined);
  });

  it('throws the mapped error with the problem for a non-2xx', async () => {
    const { client } = setup(() =>
      problemResponse(400, 'invalid_request', 'amount must be an integer ≥ 1', { param: 'amount' }),
    );
    const error = await client.payments.create({ ...createParams, amount: 0 }).catch((e) => e);
    expect(error).toBeInstanceOf(PaymentServiceError);
    expect(error.message).toBe(
      '400 invalid_request: amount must be an integer ≥ 1 (param: amount) [request req_problem1]',
    );
  });

  it('throws invalid_response for a 2xx body that is not JSON, or empty', async () => {
    const { client } = setup(
      () => new Response('<html>ok</html>', { status: 200, headers: { 'Request-Id': 'req_html' } }),
    );
    const error = await client.payments.create(createParams).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.code).toBe('invalid_response');
    expect(error.status).toBe(200);
    expect(error.requestId).toBe('req_html');
    expect(error.cause).toBeInstanceOf(SyntaxError);

    const empty = setup(() => new Response(null, { status: 204 }));
    const emptyError = await empty.client.payments.create(createParams).catch((e) => e);
    expect(emptyError.code).toBe('invalid_response');
    expect(emptyError.status).toBe(204);
  });
});

describe('payments.retrieve', () => {
  it('GETs /v1/payments/{id} without a body, Content-Type or Idempotency-Key', async () => {
    const { client, requests } = setup();
    await expect(client.payments.retrieve('pay_1')).resolves.toEqual(paymentFixture());
    const [request] = requests;
    expect(request?.method).toBe('GET');
    expect(request?.url.href).toBe('http://sandbox.test/v1/payments/pay_1');
    expect(request?.body).toBeNull();
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${apiKey}`);
    expect(request?.headers.get('Accept')).toBe('application/json');
    expect(request?.headers.has('Content-Type')).toBe(false);
    expect(request?.headers.has('Idempotency-Key')).toBe(false);
  });

  it('percent-encodes an id with other characters, so it stays one path segment', async () => {
    const { client, requests } = setup(() => problemResponse(404, 'not_found', 'No such payment.'));
    await expect(client.payments.retrieve('pay_%2e%2e ü')).rejects.toBeInstanceOf(NotFoundError);
    expect(requests[0]?.url.pathname).toBe('/v1/payments/pay_%252e%252e%20%C3%BC');
  });

  it.each([
    ['', /got an empty string/],
    ['.', /got "\.", which would address another path/],
    ['..', /got "\.\.", which would address another path/],
    ['../refunds?x=1', /without \/ \\ \? # or control characters; got one with "\/"/],
    ['pay_1?expand=all', /got one with "\?"/],
    ['pay_1#x', /got one with "#"/],
    ['pay_1\\x', /got one with "\\"/],
    ['pay_1\n', /the control character U\+000A/],
  ])('refuses the id %j before sending', async (id, message) => {
    const { client, requests } = setup();
    await expect(client.payments.retrieve(id)).rejects.toThrow(message);
    await expect(client.payments.capture(id)).rejects.toThrow(TypeError);
    await expect(client.refunds.create(id)).rejects.toThrow(TypeError);
    await expect(client.webhookEndpoints.delete(id)).rejects.toThrow(
      /a webhook endpoint id must be/,
    );
    expect(requests).toHaveLength(0);
  });
});

describe('payments.list', () => {
  it('GETs /v1/payments with limit and starting_after as query parameters', async () => {
    const page: PaymentList = { object: 'list', data: [paymentFixture()], has_more: false };
    const { client, requests } = setup(() => jsonResponse(page));
    const result = await client.payments.list({ limit: 20, starting_after: 'pay_0' });
    expectTypeOf(result).toEqualTypeOf<PaymentList>();
    expect(result).toEqual(page);
    expect(requests[0]?.method).toBe('GET');
    expect(requests[0]?.url.pathname).toBe('/v1/payments');
    expect(Object.fromEntries(requests[0]?.url.searchParams ?? [])).toEqual({
      limit: '20',
      starting_after: 'pay_0',
    });
  });

  it('sends no query without params', async () => {
    const { client, requests } = setup(() =>
      jsonResponse({ object: 'list', data: [], has_more: false }),
    );
    await client.payments.list();
    expect(requests[0]?.url.href).toBe('http://sandbox.test/v1/payments');
  });
});

describe('payments.listAll', () => {
  it('walks every page with starting_after = the last id, until has_more is false', async () => {
    const pages: PaymentList[] = [
      {
        object: 'list',
        data: [paymentFixture({ id: 'pay_5' }), paymentFixture({ id: 'pay_4' })],
        has_more: true,
      },
      {
        object: 'list',
        data: [paymentFixture({ id: 'pay_3' }), paymentFixture({ id: 'pay_2' })],
        has_more: true,
      },
      { object: 'list', data: [paymentFixture({ id: 'pay_1' })], has_more: false },
    ];
    const { client, requests } = setup((_request, index) => jsonResponse(pages[index]));
    const ids: string[] = [];
    for await (const payment of client.payments.listAll({ limit: 2 })) ids.push(payment.id);
    expect(ids).toEqual(['pay_5', 'pay_4', 'pay_3', 'pay_2', 'pay_1']);
    expect(requests.map((request) => request.url.search)).toEqual([
      '?limit=2',
      '?limit=2&starting_after=pay_4',
      '?limit=2&starting_after=pay_2',
    ]);
  });

  it('throws invalid_response on an empty page that says has_more, instead of stopping silently', async () => {
    const { client, requests } = setup(() =>
      jsonResponse({ object: 'list', data: [], has_more: true }),
    );
    const all: Payment[] = [];
    const error = await (async () => {
      for await (const payment of client.payments.listAll()) all.push(payment);
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toBe(
      'invalid_response: listAll stopped: the list does not advance (has_more is true but the page has no last id to continue after)',
    );
    expect(all).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('throws invalid_response when data is not an array', async () => {
    const { client } = setup(() => jsonResponse({ object: 'list', data: 'pay_1', has_more: true }));
    const error = await (async () => {
      for await (const _payment of client.payments.listAll());
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain('its data is not an array');
  });

  it('fetches lazily and stops when the loop breaks', async () => {
    const { client, requests } = setup(() =>
      jsonResponse({ object: 'list', data: [paymentFixture({ id: 'pay_9' })], has_more: true }),
    );
    const iterable = client.payments.listAll();
    expect(requests).toHaveLength(0);
    for await (const payment of iterable) {
      expect(payment.id).toBe('pay_9');
      break;
    }
    expect(requests).toHaveLength(1);
  });
});

describe('payments.capture', () => {
  it('POSTs the optional amount to /v1/payments/{id}/capture', async () => {
    const { client, requests } = setup();
    await client.payments.capture('pay_1', { amount: 50000 }, { idempotencyKey: 'capture-1' });
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url.href).toBe('http://sandbox.test/v1/payments/pay_1/capture');
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(request?.headers.get('Idempotency-Key')).toBe('capture-1');
    expect(JSON.parse(request?.body ?? '')).toEqual({ amount: 50000 });
  });

  it('sends no body and no Content-Type without params (capture everything)', async () => {
    const { client, requests } = setup();
    await client.payments.capture('pay_1');
    expect(requests[0]?.body).toBeNull();
    expect(requests[0]?.headers.has('Content-Type')).toBe(false);
    expect(requests[0]?.headers.get('Idempotency-Key')).toMatch(uuidPattern);
  });

  it('throws ConflictError for invalid_state', async () => {
    const { client } = setup(() => problemResponse(409, 'invalid_state', 'Payment is SUCCEEDED.'));
    await expect(client.payments.capture('pay_1')).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('payments.cancel', () => {
  it('POSTs to /v1/payments/{id}/cancel without a body, with an Idempotency-Key', async () => {
    const canceled = paymentFixture({ status: 'CANCELED', capture: false, amount_captured: 0 });
    const { client, requests } = setup(() => jsonResponse(canceled));
    await expect(client.payments.cancel('pay_1')).resolves.toEqual(canceled);
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url.href).toBe('http://sandbox.test/v1/payments/pay_1/cancel');
    expect(request?.body).toBeNull();
    expect(request?.headers.has('Content-Type')).toBe(false);
    expect(request?.headers.get('Idempotency-Key')).toMatch(uuidPattern);
  });

  it('passes the caller’s Idempotency-Key through', async () => {
    const { client, requests } = setup();
    await client.payments.cancel('pay_1', { idempotencyKey: 'cancel-pay_1' });
    expect(requests[0]?.headers.get('Idempotency-Key')).toBe('cancel-pay_1');
  });
});

describe('payments.listAll against a hostile server (issue 31, row 10)', () => {
  let server: HostileServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  /** A page of two payments, ending at `last`, that always says there is more. */
  const pageEndingAt = (last: string) =>
    JSON.stringify({
      object: 'list',
      data: [paymentFixture({ id: `${last}_first` }), paymentFixture({ id: last })],
      has_more: true,
    });

  it.each([
    ['repeats its first page whatever starting_after says', () => 'pay_b'],
    ['cycles between two pages', (index: number) => (index % 2 === 0 ? 'pay_b' : 'pay_d')],
  ])(
    'throws invalid_response, without yielding a payment twice, when it %s',
    async (_name, lastOf) => {
      server = await startHostileServer((_request, response, index) =>
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(pageEndingAt(lastOf(index))),
      );
      const client = createClient({ apiKey, baseUrl: server.url });
      const ids: string[] = [];
      const error = await (async () => {
        for await (const payment of client.payments.listAll({ limit: 2 })) ids.push(payment.id);
      })().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error).toMatchObject({ code: 'invalid_response' });
      expect((error as Error).message).toBe(
        'invalid_response: listAll stopped: the list does not advance (a page ends where an earlier page ended: starting_after was ignored)',
      );
      expect(new Set(ids).size).toBe(ids.length);
      expect(server.requests()).toBeLessThanOrEqual(3);
    },
  );
});
