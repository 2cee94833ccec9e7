// The three stores of the mock as the conformance suite opens them: memory, a data directory, Valkey/Redis.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { temporaryDirectory } from '../../../../../test-support/temporary-directory.js';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.js';
import { openSandbox, type Sandbox, type SandboxOptions, type StoreFactory } from './sandbox.js';

/**
 * Sandboxes in memory: each one its own store, gone with its server.
 *
 * @example
 * conformanceSuite({ factory: memoryStores(), manifest: MEMORY_MANIFEST });
 */
export function memoryStores(): StoreFactory {
  return {
    open: (options) => openSandbox({}, options),
    async dispose() {},
  };
}

/**
 * Sandboxes on data directories: each one a fresh directory under one temporary root, which
 * `reopen` opens again (a restart) and `dispose` deletes.
 *
 * @example
 * const stores = dataDirStores();
 * afterAll(() => stores.dispose());
 */
export function dataDirStores(): StoreFactory {
  const root = temporaryDirectory('conformance-');
  const directories = new WeakMap<Sandbox, string>();
  let count = 0;
  const openOn = async (directory: string, options?: SandboxOptions, start?: number) => {
    const sandbox = await openSandbox({ dataDir: directory }, options, start);
    directories.set(sandbox, directory);
    return sandbox;
  };
  return {
    open(options) {
      const directory = join(root, String(++count));
      mkdirSync(directory);
      return openOn(directory, options);
    },
    reopen(previous, options) {
      const directory = directories.get(previous);
      if (directory === undefined) throw new Error('reopen: not a sandbox of this factory');
      return openOn(directory, options, previous.clock.now());
    },
    async dispose() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Sandboxes on one throwaway redis-server (started on first use, as the Redis tests start it):
 * each one under a fresh prefix, which `reopen` opens again (another instance of the fleet).
 *
 * @example
 * const stores = redisStores();
 * afterAll(() => stores.dispose());
 */
export function redisStores(): StoreFactory {
  let server: Promise<TestRedis> | undefined;
  const prefixes = new WeakMap<Sandbox, string>();
  let count = 0;
  const openOn = async (prefix: string, options?: SandboxOptions, start?: number) => {
    server ??= startTestRedis();
    const { url } = await server;
    const sandbox = await openSandbox({ redisUrl: url, redisPrefix: prefix }, options, start);
    prefixes.set(sandbox, prefix);
    return sandbox;
  };
  return {
    open: (options) => openOn(`conf${process.pid}-${++count}:`, options),
    reopen(previous, options) {
      const prefix = prefixes.get(previous);
      if (prefix === undefined) throw new Error('reopen: not a sandbox of this factory');
      return openOn(prefix, options, previous.clock.now());
    },
    async dispose() {
      await (await server)?.stop();
    },
  };
}
