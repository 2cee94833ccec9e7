// The Valkey/Redis client: ioredis with the options that make an unreachable store fail fast and recover by itself.
import type { Redis } from 'ioredis';
import type { StoreLimits } from '../limits.js';
import { STORE_WAIT_MS } from './budget.js';
import { ReplyMeter } from './reply-meter.js';
import { describeRedisUrl, parseRedisUrl } from './url.js';

/** How the client waits on the store. */
export interface RedisClientOptions {
  /** How long one command may take before it fails (ms). */
  commandTimeoutMs?: number;
  /** How long connecting may take (ms). */
  connectTimeoutMs?: number;
  /** Where connection errors are told (already free of the password), at most one a second. */
  log?: (line: string) => void;
  /** The largest reply read (bytes); a larger one ends the connection. Default `maxReplyBytes()` of the default limits. */
  maxReplyBytes?: number;
}

/** The default per-key budget (16 MiB), when no limits are given. */
const DEFAULT_KEY_BUDGET_BYTES = 16 * 1024 * 1024;

/**
 * The largest reply the store reads: one reply holds at most one key's data (its byte budget)
 * with its framing, so twice the per-key budget and 1 MiB more (33 MiB by default). Anything
 * larger was not written by the sandbox: it is refused before it is read.
 *
 * @example
 * maxReplyBytes({ keyMemoryBudgetBytes: 16 * 1024 * 1024 }); // 34603008
 */
export function maxReplyBytes(limits: Pick<StoreLimits, 'keyMemoryBudgetBytes'>): number {
  return 2 * limits.keyMemoryBudgetBytes + 1024 * 1024;
}

/** The start of the error ioredis emits when a reply comes with no command waiting for it. */
const QUEUE_STATE_ERROR = 'Command queue state error';

/** The longest wait between two reconnection attempts (ms). */
export const MAX_RECONNECT_DELAY_MS = 1000;

/**
 * A client for `url`, not yet connected (call `connect()`): no offline queue and no resend, so
 * a command fails fast while the store is unreachable or when its connection is lost; a timeout per command; reconnects with a
 * backoff capped at one second; commands issued in the same tick share one round trip. Every
 * connection's replies are measured as they arrive (`ReplyMeter`): a reply over `maxReplyBytes`
 * or not RESP2 ends the connection before it is read, and a reply no command waits for ends
 * it too (the replies after it would answer the wrong commands); a new one is made. ioredis
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
    // A connection lost with commands in flight fails them at once: never sent again on the next
    // connection, since they may have been applied (a retry is the caller's, with its Idempotency-Key).
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? STORE_WAIT_MS,
    // No byte for that long while a command waits ends the connection, its handshake included.
    socketTimeout: options.commandTimeoutMs ?? STORE_WAIT_MS,
    connectTimeout: options.connectTimeoutMs ?? 2000,
    enableAutoPipelining: true,
    // CLIENT SETINFO would be one more round trip to wait on before the ready check.
    disableClientInfo: true,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 5), MAX_RECONNECT_DELAY_MS),
    // Shown in CLIENT LIST, never with the password.
    connectionName: 'payment-service-mock',
  });
  const where = describeRedisUrl(url);
  const limit =
    options.maxReplyBytes ?? maxReplyBytes({ keyMemoryBudgetBytes: DEFAULT_KEY_BUDGET_BYTES });
  // Each new connection gets its own meter, ahead of the parser's listener on its data.
  client.on('connect', () => {
    const stream = client.stream;
    const meter = new ReplyMeter(limit);
    const measure = (chunk: Buffer) => {
      const problem = meter.feed(chunk);
      if (problem === undefined) return;
      stream.off('data', measure);
      stream.destroy(
        new Error(`the store sent ${problem}: the connection is dropped and made again`),
      );
    };
    stream.prependListener('data', measure);
  });
  let lastLogged = 0;
  // Without a listener ioredis prints every failed reconnection; one line a second is enough.
  client.on('error', (error: Error) => {
    let message = error.message;
    if (message.startsWith(QUEUE_STATE_ERROR)) {
      // A reply nobody asked for: the replies after it would each answer the wrong command.
      // (ioredis's message holds the reply: never logged, it may hold a key's data.)
      message =
        'the store sent a reply no command waited for: the connection is dropped and made again';
      if (client.status === 'ready') client.disconnect(true);
    }
    const now = Date.now();
    if (options.log === undefined || now - lastLogged < 1000) return;
    lastLogged = now;
    options.log(`store: ${where}: ${message}`);
  });
  return client;
}
