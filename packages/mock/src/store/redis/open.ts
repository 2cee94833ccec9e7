// Opens the Redis store from its URL: the client, the connection, the format check, and a description safe to print.
import type { StoreLimits } from '../limits.js';
import type { RecordChecks } from '../record-checks.js';
import { createRedisClient, maxReplyBytes } from './client.js';
import { DEFAULT_PREFIX } from './keys.js';
import { RedisStore } from './redis-store.js';
import { describeRedisUrl } from './url.js';

/** Where and how to open the store. */
export interface OpenRedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…`. */
  url: string;
  /** Default `psm:`. */
  prefix?: string;
  limits: StoreLimits;
  /** How long one command may take (ms). Default 2 000. */
  commandTimeoutMs?: number;
  /** Where connection errors and forgotten idle keys are told (without the password). */
  log?: (line: string) => void;
  /** The checks every record read back passes. */
  checks: RecordChecks;
}

/**
 * Connects to Valkey/Redis and opens the store on it. `description` names the store for the
 * banner and logs, with the password masked. Fails with `RedisUrlError` (bad URL),
 * `StoreUnavailableError` (unreachable, refused credentials) or `StoreFormatError` (another
 * format under the prefix); no message holds the password.
 *
 * @example
 * const { store, description } = await openRedisStore({ url: 'redis://127.0.0.1:6379', limits });
 * log(`store: ${description}`); // 'store: Valkey/Redis at redis://127.0.0.1:6379, prefix psm:'
 */
export async function openRedisStore(
  options: OpenRedisStoreOptions,
): Promise<{ store: RedisStore; description: string }> {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const where = describeRedisUrl(options.url);
  const client = await createRedisClient(options.url, {
    maxReplyBytes: maxReplyBytes(options.limits),
    ...(options.commandTimeoutMs === undefined
      ? {}
      : { commandTimeoutMs: options.commandTimeoutMs }),
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  const store = await RedisStore.connect(client, {
    limits: options.limits,
    checks: options.checks,
    prefix,
    where,
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  return { store, description: `Valkey/Redis at ${where}, prefix ${prefix}` };
}
