// HAProxy takes out an instance whose store hangs (for it alone) and puts it back once the store answers: the health check tells the truth, without a key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, paymentBody } from '../http.js';
import { type Sandbox, startSandbox } from '../sandbox.js';
import { type Balancer, startHaproxy } from './haproxy.js';
import { type RedisServer, startRedisServer } from './redis-server.js';
import { type StoreProxy, startStoreProxy } from './store-proxy.js';

let redis: RedisServer;
let proxy: StoreProxy;
let stuck: Sandbox;
let healthy: Sandbox;
let balancer: Balancer;

beforeAll(async () => {
  redis = await startRedisServer();
  proxy = await startStoreProxy(redis.port);
  [stuck, healthy] = await Promise.all([
    startSandbox(['--quiet', '--redis-url', proxy.url]),
    startSandbox(['--quiet', '--redis-url', redis.url]),
  ]);
  balancer = await startHaproxy([
    { name: 'mock1', port: stuck.port },
    { name: 'mock2', port: healthy.port },
  ]);
}, 60_000);

afterAll(async () => {
  await balancer?.stop();
  await Promise.allSettled([stuck?.stop(), healthy?.stop()]);
  await proxy?.close();
  await redis?.stop();
});

/** `count` creates through the balancer, one after another: their statuses. */
async function creates(key: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index++) {
    const response = await call(balancer.url, {
      method: 'POST',
      path: '/v1/payments',
      key,
      body: paymentBody(1000 + index),
    });
    statuses.push(response.status);
  }
  return statuses;
}

describe('an instance whose store stops answering, behind HAProxy', () => {
  it('is taken out while its store hangs and put back once it answers', {
    timeout: 60_000,
  }, async () => {
    const key = `sk_test_stuck_${process.pid}`;
    expect(await creates(key, 4)).toEqual([201, 201, 201, 201]);

    proxy.freeze();
    await balancer.untilOutput((output) => /Server mocks\/mock1 is DOWN/.test(output));
    const direct = await call(stuck.url, { method: 'GET', path: '/_sandbox/health' });
    expect(direct.status).toBe(503);
    expect(direct.json).toMatchObject({ code: 'store_unavailable' });
    // Every request goes to the instance that can serve it.
    expect(await creates(key, 6)).toEqual([201, 201, 201, 201, 201, 201]);

    proxy.thaw();
    await balancer.untilOutput((output) => /Server mocks\/mock1 is UP/.test(output));
    expect((await call(stuck.url, { method: 'GET', path: '/_sandbox/health' })).status).toBe(200);
    expect(await creates(key, 4)).toEqual([201, 201, 201, 201]);
    const listed = await call(stuck.url, { method: 'GET', path: '/v1/payments?limit=100', key });
    expect(listed.status).toBe(200);
    expect((listed.json as { data: unknown[] }).data).toHaveLength(14);
  });
});
