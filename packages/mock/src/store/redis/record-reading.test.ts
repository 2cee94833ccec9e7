// Values written into Valkey/Redis under the prefix by someone else (by hand, a bug, another version): every kind of record read back passes the API's and restore()'s checks, or the request is answered 503 store_unavailable and the key and field are logged.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, mockServerOf } from '../../app/mock-server.js';
import { createRuntime, type Runtime } from '../../app/runtime.js';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.js';
import type { OpeningStore } from '../opening-store.js';
import { accountHash } from './keys.js';
import { StoreRecordError } from './reading.js';
import { RedisStore } from './redis-store.js';

let redis: TestRedis;
let runtime: Runtime;
let mock: MockServer;
let client: Redis;
const logs: string[] = [];
const prefix = `rec${process.pid}:`;

beforeAll(async () => {
  redis = await startTestRedis();
  runtime = createRuntime({
    redisUrl: redis.url,
    redisPrefix: prefix,
    logger: (line) => logs.push(line),
    // Every attempt fails: it is logged, and a retry queued.
    webhookFetch: async () => new Response(null, { status: 500 }),
  });
  mock = mockServerOf(runtime);
  await mock.ready();
  const store = (runtime.state.store as OpeningStore).current;
  if (!(store instanceof RedisStore)) throw new Error('not on Redis');
  client = store.client;
});

afterAll(async () => {
  mock?.close();
  await redis?.stop();
});

const paymentBody = JSON.stringify({
  amount: 1500,
  currency: 'KZT',
  capture: false,
  payment_method: { type: 'token', token: 'tok_test_success' },
});

/** A key's sandbox with one record of every kind, made through the API; its keys in the store. */
async function seeded(apiKey: string) {
  const call = (path: string, init: RequestInit = {}) =>
    mock.fetch(path, {
      ...init,
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    });
  const endpoint = await (
    await call('/v1/webhook_endpoints', {
      method: 'POST',
      body: JSON.stringify({ url: 'http://shop.test/hooks' }),
    })
  ).json();
  const created = await call('/v1/payments', {
    method: 'POST',
    body: paymentBody,
    headers: { 'idempotency-key': 'order-1' },
  });
  expect(created.status).toBe(201);
  const payment = await created.json();
  await mock.webhooksSettled();
  await runtime.requestsRecorded();
  const account = `${prefix}a:${accountHash(apiKey)}`;
  const [eventId] = await client.hkeys(`${account}:v`);
  return {
    call,
    account,
    paymentId: payment.id as string,
    endpointId: endpoint.id as string,
    eventId,
  };
}

type Seeded = Awaited<ReturnType<typeof seeded>>;

/** The create retried with its Idempotency-Key: its stored answer is read back. */
const replayCreate = (s: Seeded) =>
  s.call('/v1/payments', {
    method: 'POST',
    body: paymentBody,
    headers: { 'idempotency-key': 'order-1' },
  });

/** Rewrites a 'size|json' value's JSON. */
const sized = (stored: string, edit: (value: Record<string, unknown>) => void) => {
  const bar = stored.indexOf('|');
  const value = JSON.parse(stored.slice(bar + 1));
  edit(value);
  return `${stored.slice(0, bar)}|${JSON.stringify(value)}`;
};

/** Rewrites the JSON of a hash field. */
async function editField(
  key: string,
  field: string,
  edit: (value: Record<string, unknown>) => void,
) {
  const value = JSON.parse((await client.hget(key, field)) as string);
  edit(value);
  await client.hset(key, field, JSON.stringify(value));
}

type Case = [
  name: string,
  write: (s: Seeded) => Promise<unknown>,
  read: (s: Seeded) => Promise<Response>,
  where: (s: Seeded) => string,
  field: string,
];

const cases: Case[] = [
  [
    'a payment whose JSON is not JSON (retrieve)',
    (s) => client.hset(`${s.account}:p`, s.paymentId, '{"id":"pay_'),
    (s) => s.call(`/v1/payments/${s.paymentId}`),
    (s) => `${s.account}:p`,
    'payment',
  ],
  [
    'a payment whose JSON is not JSON (list)',
    (s) => client.hset(`${s.account}:p`, s.paymentId, '{"id":"pay_'),
    (s) => s.call('/v1/payments'),
    (s) => `${s.account}:p`,
    'payment',
  ],
  [
    'a payment of an impossible status',
    (s) => editField(`${s.account}:p`, s.paymentId, (p) => (p.status = 'BOGUS')),
    (s) => s.call(`/v1/payments/${s.paymentId}`),
    (s) => `${s.account}:p`,
    'payment.status',
  ],
  [
    'a payment stored under another id than its own',
    (s) => editField(`${s.account}:p`, s.paymentId, (p) => (p.id = 'pay_OTHER')),
    (s) => s.call(`/v1/payments/${s.paymentId}`),
    (s) => `${s.account}:p`,
    'payment.id',
  ],
  // The API sends a payment's and a stored answer's JSON as it is: only the sandbox's own form.
  ...(
    [
      [
        'whose amount is written 15e2',
        (text: string) => text.replace('"amount":1500,', '"amount":15e2,'),
      ],
      [
        'naming its amount twice',
        (text: string) => text.replace('"amount":1500,', '"amount":1,"amount":1500,'),
      ],
      ['written with spaces', (text: string) => JSON.stringify(JSON.parse(text), null, 1)],
    ] as const
  ).map(
    ([how, edit]): Case => [
      `a payment ${how}`,
      async (s: Seeded) => {
        const text = (await client.hget(`${s.account}:p`, s.paymentId)) as string;
        await client.hset(`${s.account}:p`, s.paymentId, edit(text));
      },
      (s: Seeded) => s.call(`/v1/payments/${s.paymentId}`),
      (s: Seeded) => `${s.account}:p`,
      'payment',
    ],
  ),
  [
    'a stored answer written with spaces',
    (s) =>
      editField(`${s.account}:i`, 'order-1', (record) => {
        const response = record.response as { body: string };
        response.body = JSON.stringify(JSON.parse(response.body), null, 1);
      }),
    replayCreate,
    (s) => `${s.account}:i`,
    'response.body',
  ],
  [
    'an event whose body is written with spaces',
    async (s) => {
      const stored = (await client.hget(`${s.account}:v`, s.eventId as string)) as string;
      const edited = sized(stored, (event) => {
        event.body = JSON.stringify(JSON.parse(event.body as string), null, 1);
      });
      await client.hset(`${s.account}:v`, s.eventId as string, edited);
    },
    (s) => s.call(`/_sandbox/events/${s.eventId}/redeliver`, { method: 'POST' }),
    (s) => `${s.account}:v`,
    'body',
  ],
  [
    'a clock offset of 1e300',
    (s) => client.hset(s.account, 'off', '1e300'),
    (s) => s.call('/_sandbox/clock'),
    (s) => s.account,
    'clock_offset_seconds',
  ],
  [
    'faults holding a request for 11 days',
    (s) => client.hset(s.account, 'f', '{"latency_ms":999999999}'),
    (s) => s.call('/v1/payments'),
    (s) => s.account,
    'latency_ms',
  ],
  [
    'faults failing requests with 200',
    (s) => client.hset(s.account, 'f', '{"fail_next":{"count":1,"status":200}}'),
    (s) => s.call('/v1/payments'),
    (s) => s.account,
    'fail_next.status',
  ],
  [
    'a stored answer with a header that splits the response',
    (s) =>
      editField(`${s.account}:i`, 'order-1', (record) => {
        const response = record.response as { headers: Record<string, string> };
        response.headers = { 'content-type': 'application/json', 'x-a': 'a\r\nSet-Cookie: s=1' };
      }),
    replayCreate,
    (s) => `${s.account}:i`,
    'response.headers["x-a"]',
  ],
  [
    'a stored answer of status 1000',
    (s) =>
      editField(`${s.account}:i`, 'order-1', (record) => {
        (record.response as { status: number }).status = 1000;
      }),
    replayCreate,
    (s) => `${s.account}:i`,
    'response.status',
  ],
  [
    'an endpoint at the cloud metadata address',
    (s) =>
      editField(`${s.account}:e`, s.endpointId, (record) => {
        (record.endpoint as { url: string }).url = 'http://169.254.169.254/latest/meta-data';
      }),
    (s) => s.call('/v1/webhook_endpoints'),
    (s) => `${s.account}:e`,
    'endpoint.url',
  ],
  [
    'an event whose body is not an Event',
    async (s) => {
      const stored = (await client.hget(`${s.account}:v`, s.eventId as string)) as string;
      const edited = sized(stored, (event) => (event.body = '{"id":"evt_1"}'));
      await client.hset(`${s.account}:v`, s.eventId as string, edited);
    },
    (s) => s.call(`/_sandbox/events/${s.eventId}/redeliver`, { method: 'POST' }),
    (s) => `${s.account}:v`,
    'body.object',
  ],
  [
    'a delivery log entry of attempt 0',
    async (s) => {
      const [stored] = await client.lrange(`${s.account}:l`, 0, 0);
      await client.lset(
        `${s.account}:l`,
        0,
        sized(stored as string, (e) => (e.attempt = 0)),
      );
    },
    (s) => s.call('/_sandbox/webhook_deliveries'),
    (s) => `${s.account}:l`,
    'attempt',
  ],
  [
    "a request of the inspector's log with a status of 1000",
    async (s) => {
      const [stored] = await client.lrange(`${s.account}:r`, 0, 0);
      await client.lset(
        `${s.account}:r`,
        0,
        sized(stored as string, (e) => (e.status = 1000)),
      );
    },
    (s) => s.call('/_sandbox/inspector'),
    (s) => `${s.account}:r`,
    'status',
  ],
];

describe('a value under the prefix that fails the checks', () => {
  it.each(cases.map((entry, index) => [...entry, index] as const))(
    'answers 503 store_unavailable for %s, and logs the key and the field',
    async (_, write, read, where, field, index) => {
      const seed = await seeded(`sk_test_hostile_value_${index}`);
      await write(seed);
      const answer = await read(seed);
      expect(answer.status).toBe(503);
      expect((await answer.json()).code).toBe('store_unavailable');
      const key = where(seed);
      const line = logs.find((logged) => logged.includes(`the store's key ${key}`));
      expect(line).toContain(`whose ${field} is wrong`);
    },
  );

  it('answers again once the key is reset', async () => {
    const seed = await seeded('sk_test_hostile_value_reset');
    await client.hset(`${seed.account}:p`, seed.paymentId, '{"id":"pay_');
    expect((await seed.call('/v1/payments')).status).toBe(503);
    expect((await seed.call('/_sandbox/reset', { method: 'POST' })).status).toBe(200);
    expect((await seed.call('/v1/payments')).status).toBe(200);
  });

  it('refuses a queued attempt of number 99 (read by the dispatcher, not a request)', async () => {
    const seed = await seeded('sk_test_hostile_value_queued');
    const attempts = await client.hgetall(`${seed.account}:qd`);
    const [member, stored] = Object.entries(attempts)[0] as [string, string];
    const bar = stored.indexOf('|');
    const value = JSON.parse(stored.slice(bar + 1));
    value.attempt = 99;
    await client.hset(
      `${seed.account}:qd`,
      member,
      `${stored.slice(0, bar)}|${JSON.stringify(value)}`,
    );
    const store = (runtime.state.store as OpeningStore).current as RedisStore;
    const account = await store.open('sk_test_hostile_value_queued');
    await expect(account.webhookState().queuedAttempts()).rejects.toThrowError(StoreRecordError);
    await expect(account.webhookState().queuedAttempts()).rejects.toThrowError(
      /delivery attempt whose attempt is wrong/,
    );
  });

  it('logs a refusal once per key and field, however often it is read', async () => {
    const seed = await seeded('sk_test_hostile_value_once');
    await client.hset(seed.account, 'f', '{"latency_ms":-1}');
    for (let index = 0; index < 3; index++) {
      expect((await seed.call('/_sandbox/faults')).status).toBe(503);
    }
    const lines = logs.filter((line) => line.includes(`the store's key ${seed.account} holds`));
    expect(lines).toHaveLength(1);
  });
});
