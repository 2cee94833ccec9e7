// The Valkey/Redis client: ioredis with the options that make an unreachable store fail fast and recover by itself.
import type { Redis } from 'ioredis';
import { describeRedisUrl, parseRedisUrl } from './url.js';

/** How the client waits on the store. */
export interface RedisClientOptions {
  /** How long one command may take before it fails (ms). */
  commandTimeoutMs?: number;
  /** How long connecting may take (ms). */
  connectTimeoutMs?: number;
  /** Where connection errors are told (already free of the password), at most one a second. */
  log?: (line: string) => void;
}

/** The longest wait between two reconnection attempts (ms). */
export const MAX_RECONNECT_DELAY_MS = 1000;

/**
 * A client for `url`, not yet connected (call `connect()`): no offline queue and one retry, so
 * a command fails fast while the store is unreachable; a timeout per command; reconnects with a
 * backoff capped at one second; commands issued in the same tick share one round trip. ioredis
 * is loaded here, on first use: it takes ~190 ms to load, which a sandbox in memory never pays.
 *
 * @example
 * const client = await createRedisClient('redis://127.0.0.1:6379');
 * await client.connect();
 */
export async function createRedisClient(
  url: string,
  options: RedisClientOptions = {},
): Promise<Redis> {
  const target = parseRedisUrl(url);
  const { Redis } = await import('ioredis');
  const client = new Redis({
    host: target.host,
    port: target.port,
    db: target.db,
    username: target.username,
    password: target.password,
    ...(target.tls ? { tls: { servername: target.host } } : {}),
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    connectTimeout: options.connectTimeoutMs ?? 2000,
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 5), MAX_RECONNECT_DELAY_MS),
    // Shown in CLIENT LIST, never with the password.
    connectionName: 'payment-service-mock',
  });
  const where = describeRedisUrl(url);
  let lastLogged = 0;
  // Without a listener ioredis prints every failed reconnection; one line a second is enough.
  client.on('error', (error: Error) => {
    const now = Date.now();
    if (options.log === undefined || now - lastLogged < 1000) return;
    lastLogged = now;
    options.log(`store: ${where}: ${error.message}`);
  });
  return client;
}
