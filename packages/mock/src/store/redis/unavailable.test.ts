// A Redis store whose server goes away: typed errors (never a crash, never the password), and recovery when it returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.js';
import { paymentRecord, RECORD_CHECKS, ROOMY_LIMITS } from '../../test-support/redis-stores.js';
import { createRedisClient } from './client.js';
import { StoreUnavailableError } from './errors.js';
import { RedisStore } from './redis-store.js';
import { describeRedisUrl } from './url.js';

const PASSWORD = 'hunter2-Secret';
const KEY = 'sk_test_unavailable';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis(PASSWORD);
});
afterAll(async () => {
  await redis.stop();
});

/** Every text an error carries: message, stack, causes. */
function allText(error: unknown): string {
  const parts: string[] = [];
  for (let current = error; current !== undefined && current !== null; ) {
    if (!(current instanceof Error)) {
      parts.push(String(current));
      break;
    }
    parts.push(current.message, current.stack ?? '');
    current = current.cause;
  }
  return parts.join('\n');
}

async function failure(promise: Promise<unknown> | unknown): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('RedisStore when the server is unreachable', () => {
  it('refuses a wrong password without printing either password', async () => {
    const url = redis.url.replace(PASSWORD, 'Wrong-Pass-123');
    const logged: string[] = [];
    const client = await createRedisClient(url, { log: (line) => logged.push(line) });
    const error = await failure(
      RedisStore.connect(client, {
        limits: ROOMY_LIMITS,
        checks: RECORD_CHECKS,
        where: describeRedisUrl(url),
      }),
    );
    client.disconnect();
    expect(allText(error)).toMatch(/WRONGPASS|NOAUTH/);
    expect(allText(error) + logged.join('\n')).not.toMatch(/Wrong-Pass-123|hunter2/);
  });

  it('fails fast with StoreUnavailableError while down, and recovers by itself when it returns', async () => {
    const logged: string[] = [];
    const client = await createRedisClient(redis.url, {
      commandTimeoutMs: 500,
      log: (line) => logged.push(line),
    });
    const store = await RedisStore.connect(client, {
      limits: ROOMY_LIMITS,
      checks: RECORD_CHECKS,
      prefix: 'down:',
      where: describeRedisUrl(redis.url),
    });
    const account = await store.open(KEY);
    await account.createPayment(paymentRecord('pay_1'));

    await redis.stop();
    for (const call of [
      () => store.find(KEY),
      () => store.open(KEY),
      () => store.admit(),
      () => account.payment('pay_1'),
      () => account.createPayment(paymentRecord('pay_2')),
      () => account.webhookState().claimDueAttempt(0),
    ]) {
      const error = await failure(call());
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as StoreUnavailableError).retryAfterSeconds).toBe(1);
      expect(allText(error)).toContain(`127.0.0.1:${redis.port}`);
      expect(allText(error)).not.toContain(PASSWORD);
    }
    // Recording a request cannot throw.
    await expect(
      account.recordRequest({
        requestId: 'req_1',
        method: 'GET',
        path: '/v1/payments',
        status: 503,
        code: 'store_unavailable',
        latencyMs: 1,
        receivedAt: 0,
        requestBody: null,
        responseBody: null,
        truncated: false,
      }),
    ).resolves.toBeUndefined();
    // The background sweep swallows its failure.
    store.sweep(Date.now());

    const ready = new Promise((resolve) => client.once('ready', resolve));
    await redis.restart();
    await ready;
    // The server restarted empty (no persistence): the store starts over, format marker included.
    const again = await store.open(KEY);
    expect(again).not.toBe(account);
    expect(account.closed).toBe(true);
    await again.createPayment(paymentRecord('pay_3'));
    expect((await again.payment('pay_3'))?.id).toBe('pay_3');
    expect(await store.admit()).toBe(true);
    expect(logged.join('\n')).not.toContain(PASSWORD);
    await store.close();
  });

  it('bounds a slow store by the command timeout', { timeout: 30_000 }, async () => {
    // Roomy enough for SCRIPT LOAD on a loaded machine; the pause outlasts it.
    const client = await createRedisClient(redis.url, { commandTimeoutMs: 1000 });
    const store = await RedisStore.connect(client, {
      limits: ROOMY_LIMITS,
      checks: RECORD_CHECKS,
      prefix: 'slow:',
    });
    // The admin's own commands wait out the pause (longer than the store's default wait).
    const admin = await createRedisClient(redis.url, { commandTimeoutMs: 20_000 });
    await admin.connect();
    // Every client's commands wait until the pause ends.
    await admin.call('CLIENT', 'PAUSE', '2500', 'ALL');
    // A command that timed out ends its connection: the store serves again on a new one.
    const ready = new Promise((resolve) => client.once('ready', resolve));
    const error = await failure(store.admit());
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(allText(error)).toMatch(/timed out/i);
    await admin.ping(); // answered once the pause is over
    await ready;
    expect(await store.admit()).toBe(true);
    await admin.quit();
    await store.close();
  });
});
