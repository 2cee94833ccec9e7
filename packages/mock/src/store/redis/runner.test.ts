// The script runner on a real redis-server: scripts loaded once by their SHA1, loaded again when the server lost them (SCRIPT FLUSH), and a server that will not keep them refused.
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HostileRedis, startHostileRedis } from '../../test-support/hostile-redis.js';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.js';
import {
  fleet,
  paymentRecord,
  RECORD_CHECKS,
  ROOMY_LIMITS,
} from '../../test-support/redis-stores.js';
import { wireTrace } from '../../test-support/round-trips.js';
import { createRedisClient } from './client.js';
import { StoreReplyError, StoreUnavailableError } from './errors.js';
import { openRedisStore } from './open.js';
import type { RedisStore } from './redis-store.js';
import { SCRIPTS } from './scripts.js';

const KEY = 'sk_test_script_runner';

let redis: TestRedis;
let admin: Redis;
let store: RedisStore;
let close: () => Promise<void>;
let hostile: HostileRedis | undefined;
const logged: string[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
  admin = await createRedisClient(redis.url);
  await admin.connect();
  const made = await fleet(redis.url, 1, { log: (line) => logged.push(line) });
  store = made.stores[0] as RedisStore;
  close = made.close;
});
afterEach(async () => {
  await hostile?.close();
  hostile = undefined;
  logged.length = 0;
});
afterAll(async () => {
  await close();
  await admin.quit();
  await redis.stop();
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('scripts loaded by name and version', () => {
  it('are all in the server once the store is open, each under the SHA1 of its text', async () => {
    const names = Object.values(SCRIPTS);
    const held = (await admin.script('EXISTS', ...names.map((script) => script.sha))) as number[];
    expect(held).toEqual(names.map(() => 1));
  });

  it('lost by the server (SCRIPT FLUSH): each is loaded again once, every call retried once, and answers as before', async () => {
    const account = await store.open(KEY);
    await account.createPayment(paymentRecord('pay_flushed'));
    expect(await admin.script('FLUSH')).toBe('OK');
    const reloads = store.runner.reloads;
    let answers: unknown[] = [];
    const trace = await wireTrace(store.client, async () => {
      answers = await Promise.all([
        store.findWithPayment(KEY, 'pay_flushed'),
        store.findWithPayment(KEY, 'pay_flushed'),
        account.payment('pay_flushed'),
      ]);
    });
    const [first, second, payment] = answers as [
      Awaited<ReturnType<RedisStore['findWithPayment']>>,
      Awaited<ReturnType<RedisStore['findWithPayment']>>,
      Awaited<ReturnType<typeof account.payment>>,
    ];
    expect(first.payment?.id).toBe('pay_flushed');
    expect(second.payment?.id).toBe('pay_flushed');
    expect(payment?.id).toBe('pay_flushed');
    // Three calls met NOSCRIPT; two scripts were lost: one SCRIPT LOAD each, then each call again.
    expect(store.runner.reloads - reloads).toBe(3);
    expect(logged.join('\n')).toMatch(
      /store: .+: the server no longer held the script psm_(find|payment) \(restarted, flushed or failed over\?\): it is loaded again/,
    );
    const sent = trace.flat();
    expect(sent.filter((name) => name === 'script')).toHaveLength(2);
    expect(sent.filter((name) => name === 'psm_find')).toHaveLength(4);
    expect(sent.filter((name) => name === 'psm_payment')).toHaveLength(2);
    expect(trace[0]).toEqual(['psm_find', 'psm_find', 'psm_payment']);
    // Back in the server: the next call is one EVALSHA again.
    expect(await wireTrace(store.client, () => account.payment('pay_flushed'))).toEqual([
      ['psm_payment'],
    ]);
    expect(store.runner.reloads - reloads).toBe(3);
  });

  it('a write the server lost its script for is made once, not twice', async () => {
    const account = await store.open(`${KEY}_write`);
    await admin.script('FLUSH');
    await account.createPayment(paymentRecord('pay_once'));
    const payments = await account.storedPayments();
    expect(payments.map((stored) => stored.id)).toEqual(['pay_once']);
    expect((await store.stats()).payments).toBeGreaterThanOrEqual(1);
  });
});

describe('a server that does not keep the scripts', { timeout: 30_000 }, () => {
  async function openBehindProxy(): Promise<RedisStore> {
    hostile = await startHostileRedis(redis.port);
    const { store: proxied } = await openRedisStore({
      url: hostile.url,
      prefix: `runner${process.pid}:`,
      limits: ROOMY_LIMITS,
      checks: RECORD_CHECKS,
      log: (line) => logged.push(line),
    });
    return proxied;
  }

  it('losing one again right after loading it: 503 store_unavailable, and the store serves once the server keeps it', async () => {
    const proxied = await openBehindProxy();
    try {
      await (await proxied.open(KEY)).createPayment(paymentRecord('pay_kept'));
      // Every reply but a SCRIPT LOAD's (the script's SHA1) says the script is not there.
      hostile?.rewrite((reply) =>
        reply.toString('latin1').startsWith('$40\r\n')
          ? undefined
          : Buffer.from('-NOSCRIPT No matching script. Please use EVAL.\r\n'),
      );
      const error = await failure(proxied.find(KEY));
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toContain(
        'lost the script psm_find again right after loading it',
      );
      hostile?.rewrite(undefined);
      expect((await proxied.findWithPayment(KEY, 'pay_kept')).payment?.id).toBe('pay_kept');
    } finally {
      await proxied.close();
    }
  });

  it('answering a string a script never answers: a reply error, not a payment made', async () => {
    const proxied = await openBehindProxy();
    try {
      const account = await proxied.open(`${KEY}_codes`);
      hostile?.rewrite(() => Buffer.from('$4\r\nDONE\r\n'));
      const error = await failure(account.createPayment(paymentRecord('pay_code')));
      expect(error).toBeInstanceOf(StoreReplyError);
      expect((error as Error).message).toContain(
        'answered psm_create with a string, which no script of this sandbox returns',
      );
      expect(SCRIPTS.psm_create.codes).toEqual(new Set(['CLOSED', 'ID_HELD', 'TAKEN']));
    } finally {
      hostile?.rewrite(undefined);
      await proxied.close();
    }
  });

  it('naming a script by another SHA1 than its own: refused at start as a store that answers what Valkey/Redis does not', async () => {
    hostile = await startHostileRedis(redis.port);
    hostile.rewrite((reply) =>
      reply.toString('latin1').startsWith('$40\r\n')
        ? Buffer.from(`$40\r\n${'0'.repeat(40)}\r\n`)
        : undefined,
    );
    const error = await failure(
      openRedisStore({
        url: hostile.url,
        prefix: `runner${process.pid}-sha:`,
        limits: ROOMY_LIMITS,
        checks: RECORD_CHECKS,
        log: (line) => logged.push(line),
      }),
    );
    expect(error).toBeInstanceOf(StoreReplyError);
    expect((error as Error).message).toMatch(
      /answered SCRIPT LOAD of psm_\w+ with another hash, which no Valkey\/Redis server does/,
    );
  });
});
