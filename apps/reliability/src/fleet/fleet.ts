// A sandbox fleet for the tests: mock instances (optionally on one redis-server) behind HAProxy.
import { MOCK_BIN, MOCK_BIN_NODE_FLAGS, type Sandbox, startSandbox } from '../sandbox.js';
import { type Balancer, startHaproxy } from './haproxy.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

/** What a fleet is made of. */
export interface FleetOptions {
  /** Mock instances (default 2). */
  instances?: number;
  /** Share one redis-server through `--redis-url` (default true); false: each instance in memory. */
  redis?: boolean;
  /** More CLI flags for every instance (default `--quiet`). */
  flags?: string[];
}

/** A running fleet: the balancer's URL, each instance, the store, and a way to stop it all. */
export interface Fleet {
  /** The balancer: what clients use. */
  url: string;
  instances: Sandbox[];
  redis: RedisServer | undefined;
  balancer: Balancer;
  stop(): Promise<void>;
}

/**
 * Starts a redis-server (unless `redis: false`), the instances on it, and HAProxy in front of
 * them (round robin). Stops what it started if any part fails.
 *
 * @example
 * const fleet = await startFleet({ instances: 2 });
 * await call(fleet.url, { method: 'POST', path: '/v1/payments', key, body });
 * await fleet.stop();
 */
export async function startFleet(options: FleetOptions = {}): Promise<Fleet> {
  const count = options.instances ?? 2;
  const flags = options.flags ?? ['--quiet'];
  const started: Array<{ stop(): Promise<void> }> = [];
  try {
    const redis = options.redis === false ? undefined : await startRedisServer();
    if (redis !== undefined) started.push(redis);
    const storeFlags = redis === undefined ? [] : ['--redis-url', redis.url];
    // The published bin with its shebang's heap flag: one process, as `npx payment-service-mock`
    // runs it, so that `kill9()` kills the process that serves. (`dist/cli.js` relaunches itself
    // in a child: a SIGKILL of the parent left the child serving until it noticed, then it
    // stopped cleanly, which is no crash.)
    const instances = await Promise.all(
      Array.from({ length: count }, () =>
        startSandbox(
          [...flags, ...storeFlags],
          {},
          { script: MOCK_BIN, nodeFlags: MOCK_BIN_NODE_FLAGS },
        ),
      ),
    );
    started.push(...instances);
    const balancer = await startHaproxy(
      instances.map((instance, index) => ({ name: `mock${index + 1}`, port: instance.port })),
    );
    started.push(balancer);
    return {
      url: balancer.url,
      instances,
      redis,
      balancer,
      stop: () => stopAll(started),
    };
  } catch (error) {
    await stopAll(started);
    throw error;
  }
}

async function stopAll(started: Array<{ stop(): Promise<void> }>): Promise<void> {
  // The balancer first, then the instances, then the store.
  await Promise.allSettled(started.reverse().map((part) => part.stop()));
}
