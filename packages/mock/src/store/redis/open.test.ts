import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.js';
import { RECORD_CHECKS, ROOMY_LIMITS } from '../../test-support/redis-stores.js';
import { StoreUnavailableError } from './errors.js';
import { openRedisStore } from './open.js';
import { RedisUrlError } from './url.js';

const PASSWORD = 'open-Secret-77';
let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis(PASSWORD);
});
afterAll(async () => {
  await redis.stop();
});

describe('openRedisStore', () => {
  it('opens the store and describes it without the password', async () => {
    const { store, description } = await openRedisStore({
      url: redis.url,
      limits: ROOMY_LIMITS,
      checks: RECORD_CHECKS,
    });
    expect(description).toBe(`Valkey/Redis at redis://:***@127.0.0.1:${redis.port}, prefix psm:`);
    expect(await store.admit()).toBe(true);
    await store.close();
  });

  it('refuses a bad URL or an unreachable server with a typed error', async () => {
    await expect(
      openRedisStore({ url: 'http://x', limits: ROOMY_LIMITS, checks: RECORD_CHECKS }),
    ).rejects.toBeInstanceOf(RedisUrlError);
    const logged: string[] = [];
    const error = await openRedisStore({
      url: `redis://:${PASSWORD}@127.0.0.1:1`,
      limits: ROOMY_LIMITS,
      checks: RECORD_CHECKS,
      log: (line) => logged.push(line),
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(String((error as Error).message)).toContain('redis://:***@127.0.0.1:1');
    expect(`${(error as Error).message}${logged.join('')}`).not.toContain(PASSWORD);
  });
});
