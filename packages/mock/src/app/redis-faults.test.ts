// A sandbox on Valkey/Redis behind a hostile RESP server, over HTTP: 503 store_unavailable (never 500) with a log line, the 2 s bound per request, and a keyless health that tells the truth.
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisClient } from '../store/redis/client.js';
import { RedisStore } from '../store/redis/redis-store.js';
import { type HostileRedis, startHostileRedis } from '../test-support/hostile-redis.js';
import { startTestRedis, type TestRedis } from '../test-support/redis-server.js';
import { type MockServer, mockServerOf } from './mock-server.js';
import { createRuntime, type Runtime } from './runtime.js';

const PASSWORD = 'faults-Secret-42';
const KEY = 'sk_test_redis_faults';
const CREATE = {
  amount: 1000,
  currency: 'KZT',
  capture: false,
  payment_method: { type: 'token', token: 'tok_test_success' },
};

let redis: TestRedis;
let admin: Redis;
let hostile: HostileRedis;
let runtime: Runtime;
let mock: MockServer;
let prefix: string;
let sandboxes = 0;
const logged: string[] = [];

beforeAll(async () => {
  redis = await startTestRedis(PASSWORD);
  admin = await createRedisClient(redis.url);
  await admin.connect();
});
afterEach(async () => {
  mock?.close();
  await hostile?.close();
  logged.length = 0;
});
afterAll(async () => {
  await admin.quit();
  await redis.stop();
});

async function start(): Promise<void> {
  hostile = await startHostileRedis(redis.port, PASSWORD);
  prefix = `faults${process.pid}-${++sandboxes}:`;
  runtime = createRuntime({
    redisUrl: hostile.url,
    redisPrefix: prefix,
    logger: (line) => logged.push(line),
  });
  mock = mockServerOf(runtime);
  await mock.ready();
}

/** The client under the opened store. */
function client(): Redis {
  const store = (runtime.state.store as { current?: unknown }).current;
  if (!(store instanceof RedisStore)) throw new Error('the store is not open');
  return store.client;
}

const nextReady = () => new Promise((resolve) => client().once('ready', resolve));

async function send(method: string, path: string, body?: unknown) {
  const response = await mock.fetch(path, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** GET /_sandbox/health as a load balancer sends it: no key. */
async function health() {
  const response = await mock.fetch('/_sandbox/health');
  return { status: response.status, text: await response.text() };
}

// Each test waits on the store in real time (2 s bounds, 1.2 s delays, reconnections): 30 s a
// test, since vitest's 5 s default timed out once beside the other suites of npm test.
describe('a sandbox on a store that stops answering with its connections open', {
  timeout: 30_000,
}, () => {
  it('answers 503 and an unhealthy keyless health while it hangs, and serves again once it answers', async () => {
    await start();
    const created = await send('POST', '/v1/payments', CREATE);
    expect(created.status).toBe(201);
    expect((await health()).status).toBe(200);

    hostile.stall();
    const down = await send('GET', `/v1/payments/${created.body.id}`);
    expect(down.status).toBe(503);
    expect(down.body.code).toBe('store_unavailable');
    const unhealthy = await health();
    expect(unhealthy.status).toBe(503);
    expect(JSON.parse(unhealthy.text)).toMatchObject({ code: 'store_unavailable' });
    // Nothing about the store but that it does not serve: no address, no password.
    expect(unhealthy.text).not.toMatch(new RegExp(`${PASSWORD}|${hostile.port}|127\\.0\\.0\\.1`));

    const ready = nextReady();
    hostile.resume();
    await ready;
    expect((await health()).status).toBe(200);
    const back = await send('GET', `/v1/payments/${created.body.id}`);
    expect(back.status).toBe(200);
    expect(back.body.id).toBe(created.body.id);
  });
});

describe('a slow store', { timeout: 30_000 }, () => {
  it('answers 503 once a request has waited 2 s on it in all, though each command came within 2 s', async () => {
    await start();
    const created = await send('POST', '/v1/payments', CREATE);
    expect(created.status).toBe(201);
    // A create waits on two round trips: 1.2 s each is 2.4 s in all.
    hostile.delayReplies(1200);
    const slow = await send('POST', '/v1/payments', CREATE);
    expect(slow.status).toBe(503);
    expect(slow.body.code).toBe('store_unavailable');
    // A retrieve waits on one.
    const read = await send('GET', `/v1/payments/${created.body.id}`);
    expect(read.status).toBe(200);
  });
});

describe('a store that answers what Valkey/Redis never does', { timeout: 30_000 }, () => {
  it('wrong types: 503 store_unavailable with a log line, an unhealthy health, and service once they stop', async () => {
    await start();
    const created = await send('POST', '/v1/payments', CREATE);
    hostile.rewrite(() => Buffer.from(':7\r\n'));
    const ready = nextReady();
    const wrong = await send('GET', `/v1/payments/${created.body.id}`);
    expect(wrong.status).toBe(503);
    expect(logged.join('\n')).toMatch(/answered psm_find with a number, which no script/);
    await ready;
    expect((await health()).status).toBe(503);
    hostile.rewrite(undefined);
    expect((await health()).status).toBe(200);
    expect((await send('GET', `/v1/payments/${created.body.id}`)).status).toBe(200);
  });

  it('another format version taking the prefix over: 503 with a log line naming it, and an unhealthy health', async () => {
    await start();
    const created = await send('POST', '/v1/payments', CREATE);
    await admin.set(`${prefix}format`, '2');
    const refused = await send('POST', '/v1/payments', CREATE);
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('store_unavailable');
    expect(logged.join('\n')).toContain(`are of store format 2, not 1`);
    const unhealthy = await health();
    expect(unhealthy.status).toBe(503);
    expect(unhealthy.text).toContain('another format version');
    await admin.set(`${prefix}format`, '1');
    expect((await health()).status).toBe(200);
    expect((await send('GET', `/v1/payments/${created.body.id}`)).status).toBe(200);
  });
});
