// The Redis store behind a hostile RESP server: an oversized reply, a store that hangs with its connection open, a slow store, wrong types, a reply nobody asked for.
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HostileRedis, startHostileRedis } from '../../test-support/hostile-redis.js';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.js';
import { paymentRecord, RECORD_CHECKS, ROOMY_LIMITS } from '../../test-support/redis-stores.js';
import { withStoreBudget } from './budget.js';
import { createRedisClient, maxReplyBytes } from './client.js';
import { StoreFormatError, StoreReplyError, StoreUnavailableError } from './errors.js';
import { accountHash, storeKeys } from './keys.js';
import { openRedisStore } from './open.js';
import type { RedisStore } from './redis-store.js';

const PASSWORD = 'hostile-Secret-9';
const KEY = 'sk_test_hostile_store';
/** The largest reply the store reads under ROOMY_LIMITS (9 MiB). */
const LIMIT = maxReplyBytes(ROOMY_LIMITS);

let redis: TestRedis;
let hostile: HostileRedis;
let admin: Redis;
let prefixes = 0;
const logged: string[] = [];
const opened: RedisStore[] = [];

beforeAll(async () => {
  redis = await startTestRedis(PASSWORD);
  admin = await createRedisClient(redis.url);
  await admin.connect();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  await hostile?.close();
  logged.length = 0;
});
afterAll(async () => {
  await admin.quit();
  await redis.stop();
});

async function open(commandTimeoutMs = 2000): Promise<{ store: RedisStore; prefix: string }> {
  hostile = await startHostileRedis(redis.port, PASSWORD);
  const prefix = `hostile${process.pid}-${++prefixes}:`;
  const { store } = await openRedisStore({
    url: hostile.url,
    prefix,
    limits: ROOMY_LIMITS,
    checks: RECORD_CHECKS,
    commandTimeoutMs,
    log: (line) => logged.push(line),
  });
  opened.push(store);
  return { store, prefix };
}

/** Resolves at the client's next `ready` (a new connection made and checked). */
const nextReady = (store: RedisStore) =>
  new Promise((resolve) => store.client.once('ready', resolve));

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

// Each test waits on the store in real time (2 s bounds, 1.2 s delays, reconnections): 30 s a
// test, since vitest's 5 s default timed out once beside the other suites of npm test.
describe('an oversized reply', { timeout: 30_000 }, () => {
  it('is refused before it is read while running: a store error, a new connection, the store serves again', async () => {
    const { store } = await open();
    const account = await store.open(KEY);
    await account.createPayment(paymentRecord('pay_big'));
    const accepted = hostile.accepted();
    hostile.oversizeNext(400_000_000, 64 * 1024 * 1024);
    const ready = nextReady(store);
    const error = await failure(store.find(KEY));
    expect(error).toBeInstanceOf(StoreUnavailableError);
    // The connection ended after about the bound, not after the 64 MiB offered.
    expect(hostile.oversizedBytesSent()).toBeLessThan(LIMIT + (4 << 20));
    expect(logged.join('\n')).toContain(
      `the store sent a reply of over ${LIMIT} bytes (a bulk of 400000000): the connection is dropped and made again`,
    );
    expect(logged.join('\n')).not.toContain(PASSWORD);
    await ready;
    expect(hostile.accepted()).toBe(accepted + 1);
    expect((await (await store.open(KEY)).payment('pay_big'))?.id).toBe('pay_big');
  });

  it('is refused at start-up: the open fails with a store error, and succeeds once replies are sane', async () => {
    hostile = await startHostileRedis(redis.port, PASSWORD);
    hostile.oversizeNext(400_000_000, 64 * 1024 * 1024);
    const error = await failure(
      openRedisStore({
        url: hostile.url,
        limits: ROOMY_LIMITS,
        checks: RECORD_CHECKS,
        log: (line) => logged.push(line),
      }),
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(hostile.oversizedBytesSent()).toBeLessThan(LIMIT + (4 << 20));
    const { store } = await openRedisStore({
      url: hostile.url,
      limits: ROOMY_LIMITS,
      checks: RECORD_CHECKS,
    });
    opened.push(store);
    expect(await store.admit()).toBe(true);
  });

  it('written under the prefix by another client, is refused when read, and the key next to it still serves', async () => {
    const { store, prefix } = await open();
    const account = await store.open(KEY);
    await account.createPayment(paymentRecord('pay_fat'));
    await (await store.open(`${KEY}_other`)).createPayment(paymentRecord('pay_other'));
    // Someone with access to the server writes a value over the bound into the key's payment.
    await admin.hset(
      `${storeKeys(prefix).account(accountHash(KEY))}:p`,
      'pay_fat',
      'x'.repeat(LIMIT + 1),
    );
    const ready = nextReady(store);
    expect(await failure(store.findWithPayment(KEY, 'pay_fat'))).toBeInstanceOf(
      StoreUnavailableError,
    );
    await ready;
    const other = await store.findWithPayment(`${KEY}_other`, 'pay_other');
    expect(other.payment?.id).toBe('pay_other');
  });
});

describe('a store that stops answering with its connection open', { timeout: 30_000 }, () => {
  it('fails the call at the command timeout, drops the connection, and serves again once the store answers', async () => {
    const { store } = await open(1000);
    const account = await store.open(KEY);
    await account.createPayment(paymentRecord('pay_stall'));
    const accepted = hostile.accepted();
    hostile.stall();
    const error = await failure(store.find(KEY));
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(String((error as Error).message)).toMatch(/timed out/);
    // A new connection was asked for at once (its own handshake hangs until the store answers).
    await new Promise((resolve) => store.client.once('connect', resolve));
    expect(hostile.accepted()).toBeGreaterThan(accepted);
    expect(logged.join('\n')).toContain(
      'a command got no reply in time: the connection is dropped and made again',
    );
    expect(await store.health()).toMatch(/not connected|did not answer/);
    hostile.resume();
    await nextReady(store);
    // The answers match their commands again: the payment read back is the one asked for.
    const back = await store.findWithPayment(KEY, 'pay_stall');
    expect(back.payment?.id).toBe('pay_stall');
    expect(await store.health()).toBeUndefined();
  });
});

describe('a slow store', { timeout: 30_000 }, () => {
  it('bounds what one request waits in all, not each command alone', async () => {
    const { store } = await open(2000);
    await (await store.open(KEY)).createPayment(paymentRecord('pay_slow'));
    // Each reply takes 60% of the budget: one command fits, two in a row do not.
    hostile.delayReplies(600);
    const error = await failure(
      withStoreBudget(1000, async () => {
        await store.find(KEY);
        await store.find(KEY);
      }),
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(String((error as Error).message)).toContain('waited 1000 ms on the store in all');
    // Outside a request (background work), the command timeout alone applies.
    await store.find(KEY);
    await store.find(KEY);
  });
});

describe('replies a Valkey/Redis server never sends', { timeout: 30_000 }, () => {
  it('a wrong type: a logged store error, a new connection, and an unhealthy store until it stops', async () => {
    const { store } = await open();
    await (await store.open(KEY)).createPayment(paymentRecord('pay_typed'));
    hostile.rewrite(() => Buffer.from(':7\r\n'));
    const ready = nextReady(store);
    const error = await failure(store.findWithPayment(KEY, 'pay_typed'));
    expect(error).toBeInstanceOf(StoreReplyError);
    expect(logged.join('\n')).toContain(
      'answered psm_find with a number, which no script of this sandbox returns: the connection is dropped and made again',
    );
    expect(await store.health()).toMatch(/answers what Valkey\/Redis does not|not connected/);
    await ready;
    hostile.rewrite(undefined);
    expect((await store.findWithPayment(KEY, 'pay_typed')).payment?.id).toBe('pay_typed');
    expect(await store.health()).toBeUndefined();
  });

  it('a reply no command asked for: the connection is dropped, never a reply matched to the wrong command', async () => {
    const { store } = await open();
    await (await store.open(KEY)).createPayment(paymentRecord('pay_one'));
    await (await store.open(`${KEY}_2`)).createPayment(paymentRecord('pay_two'));
    const ready = nextReady(store);
    hostile.sendUnasked('*1\r\n$7\r\nunasked\r\n');
    await ready;
    expect(logged.join('\n')).toContain('a reply no command waited for');
    expect(logged.join('\n')).not.toContain('unasked');
    const [one, two] = await Promise.all([
      store.findWithPayment(KEY, 'pay_one'),
      store.findWithPayment(`${KEY}_2`, 'pay_two'),
    ]);
    expect(one.payment?.id).toBe('pay_one');
    expect(two.payment?.id).toBe('pay_two');
  });

  it('another format taking the prefix over while running: a logged 503 error and an unhealthy store', async () => {
    const { store, prefix } = await open();
    await (await store.open(KEY)).createPayment(paymentRecord('pay_f'));
    await admin.set(`${prefix}format`, '2');
    const error = await failure(store.open(KEY));
    expect(error).toBeInstanceOf(StoreFormatError);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(logged.join('\n')).toContain(
      `the keys under "${prefix}" are of store format 2, not 1: use another prefix, or delete them (another version of the sandbox writes under this prefix); requests answer 503 store_unavailable`,
    );
    expect(await store.health()).toBe(
      'its store holds data of another format version under its prefix (not 1)',
    );
    await admin.set(`${prefix}format`, '1');
    expect(await store.health()).toBeUndefined();
  });
});
