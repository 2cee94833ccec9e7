// The fleet harness itself: HAProxy spreads requests over every instance, and redis-server restarts on its port.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, paymentBody } from '../http.js';
import { type Fleet, startFleet } from './fleet.js';
import { haproxyConfig } from './haproxy.js';
import { startRedisServer } from './redis-server.js';

describe('the fleet harness', () => {
  it('configures HAProxy round robin over every instance, health-checked with a loopback Host and no key', () => {
    const config = haproxyConfig(8080, [
      { name: 'mock1', port: 4011 },
      { name: 'mock2', port: 4012 },
    ]);
    expect(config).toContain('bind 127.0.0.1:8080');
    expect(config).toContain('balance roundrobin');
    expect(config).toContain('uri /_sandbox/health ver HTTP/1.1 hdr Host 127.0.0.1\n');
    expect(config).not.toContain('Authorization');
    expect(config).toContain('server mock1 127.0.0.1:4011 check');
    expect(config).toContain('server mock2 127.0.0.1:4012 check');
  });

  it("is the configuration the mock's README gives for a fleet", () => {
    const readme = readFileSync(
      join(
        dirname(createRequire(import.meta.url).resolve('@payment-service/mock/package.json')),
        'README.md',
      ),
      'utf8',
    );
    const config = haproxyConfig(4010, [
      { name: 'mock1', port: 4011 },
      { name: 'mock2', port: 4012 },
    ]);
    expect(readme).toContain(`\`\`\`\n${config.trimEnd()}\n\`\`\``);
  });

  describe('two instances in memory behind HAProxy', () => {
    let fleet: Fleet;
    beforeAll(async () => {
      fleet = await startFleet({ instances: 2, redis: false });
    });
    afterAll(() => fleet?.stop());

    it('sends consecutive requests to different instances (each keeps what it was sent)', async () => {
      const key = 'sk_test_fleet_harness_0001';
      const ids: string[] = [];
      for (let index = 0; index < 4; index++) {
        const created = await call(fleet.url, {
          method: 'POST',
          path: '/v1/payments',
          key,
          body: paymentBody(1000 + index),
        });
        expect(created.status).toBe(201);
        ids.push((created.json as { id: string }).id);
      }
      // In memory, each instance holds only the payments it made: round robin reached both.
      const held = await Promise.all(
        fleet.instances.map(async (instance) => {
          let count = 0;
          for (const id of ids) {
            const answer = await call(instance.url, { path: `/v1/payments/${id}`, key });
            if (answer.status === 200) count++;
          }
          return count;
        }),
      );
      expect(held.reduce((sum, count) => sum + count, 0)).toBe(4);
      for (const count of held) expect(count).toBeGreaterThan(0);
    });
  });

  it('starts redis-server on a free port, and starts it again empty after a stop', async () => {
    const redis = await startRedisServer();
    try {
      expect(redis.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
      await redis.stop();
      expect(redis.alive()).toBe(false);
      await redis.start();
      expect(redis.alive()).toBe(true);
    } finally {
      await redis.stop();
    }
  });
});
