// Idempotency-Key records on Valkey/Redis go oldest first (their written order), as in memory; records a previous version wrote (no order kept) go by expiry until they are gone.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.js';
import { call, createBody, createPayment, newKey } from '../conformance/client.js';
import { openSandbox, type Sandbox } from '../conformance/sandbox.js';
import { createRedisClient } from './client.js';
import { accountHash } from './keys.js';

let redis: TestRedis;
let admin: Redis;
let sandbox: Sandbox;
const PREFIX = `order${process.pid}:`;

beforeAll(async () => {
  redis = await startTestRedis();
  admin = await createRedisClient(redis.url);
  await admin.connect();
  sandbox = await openSandbox(
    { redisUrl: redis.url, redisPrefix: PREFIX },
    { maxPaymentsPerKey: 3 },
  );
});

afterAll(async () => {
  await sandbox?.close();
  await admin?.quit();
  await redis?.stop();
});

/** Whether the key's Idempotency-Key `name` still replays (a probe that is not replayed makes a payment). */
async function replays(key: string, name: string): Promise<boolean> {
  const answer = await call(sandbox, key, 'POST', '/v1/payments', {
    body: createBody(),
    idempotencyKey: name,
  });
  return answer.headers.get('idempotent-replayed') === 'true';
}

describe('the Idempotency-Key records of one key at one instant', () => {
  it('go oldest first, whatever their names', async () => {
    const key = newKey('order');
    for (const name of ['c', 'b', 'a']) await createPayment(sandbox, key, {}, name);
    // 'z' is the newest and sorts last, 'c' the oldest and sorts after 'a' and 'b'.
    await createPayment(sandbox, key, {}, 'z');
    expect(await replays(key, 'b')).toBe(true);
    expect(await replays(key, 'a')).toBe(true);
    expect(await replays(key, 'z')).toBe(true);
    expect(await replays(key, 'c')).toBe(false);
  });

  it('go by expiry while records written without their order are held, the cap holding', async () => {
    const key = newKey('legacy');
    for (const name of ['c', 'b', 'a']) await createPayment(sandbox, key, {}, name);
    // As a previous version left them: no order kept.
    expect(await admin.del(`${PREFIX}a:${accountHash(key)}:ic`)).toBe(1);
    await createPayment(sandbox, key, {}, 'z');
    // By expiry, and by name within one instant: 'a' goes.
    expect(await replays(key, 'b')).toBe(true);
    expect(await replays(key, 'c')).toBe(true);
    expect(await replays(key, 'z')).toBe(true);
    expect(await replays(key, 'a')).toBe(false);
  });
});
