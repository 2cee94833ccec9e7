// The mock server's options, their defaults, and checks that they make sense.
import type { SandboxComponents } from '@payment-service/openapi';
import type { TokenBehaviour } from '../domain/tokens.js';
import type { WebhookAddressPolicy } from '../domain/webhook-address.js';
import { neverThrowing } from '../shared/line-writer.js';
import { type Clock, systemClock } from '../shared/time.js';
import {
  DEFAULT_KEY_MEMORY_BUDGET_BYTES,
  DEFAULT_MEMORY_BUDGET_BYTES,
  MAX_REQUEST_LOG_BYTES,
} from '../store/limits.js';
import { DEFAULT_PREFIX } from '../store/redis/keys.js';
import { parseRedisUrl } from '../store/redis/url.js';

/** The sandbox's memory budgets, in bytes of stored data (estimated conservatively). */
export interface MemoryLimits {
  /** All keys together. Beyond it, new work answers 503 `sandbox_full`. Default 256 MiB. */
  memoryBudgetBytes: number;
  /**
   * One key. Beyond it, the key's own oldest data is forgotten. Default 16 MiB; at least 256 KiB
   * (`MIN_KEY_MEMORY_BUDGET_BYTES`).
   */
  keyMemoryBudgetBytes: number;
}

/** What `/_sandbox/health` shows of the log (see `MockServerOptions.logStatus`). */
export type LogStatus = SandboxComponents['schemas']['SandboxLogHealth'];

/** Options of `createMockServer`; every one is optional. */
export interface MockServerOptions {
  /** The server's clock (ms epoch). Real time by default; tests pass a manual one. */
  clock?: Clock;
  /** Pending test tokens settle this long after creation, on the key's sandbox clock. Default 5. */
  settlementDelaySeconds?: number;
  /** Largest accepted request body in bytes; larger is a 413. Default 65 536. */
  maxBodyBytes?: number;
  /** Payments kept per key; the oldest is evicted first. Default 10 000. */
  maxPaymentsPerKey?: number;
  /** Payments kept over all keys; beyond it new work answers 503 `sandbox_full`. Default 100 000. */
  maxPaymentsTotal?: number;
  /** Memory budgets of the stored data, per key and overall (see `MemoryLimits`). */
  limits?: Partial<MemoryLimits>;
  /** How long an Idempotency-Key's response is replayed, in sandbox seconds. Default 86 400. */
  idempotencyTtlSeconds?: number;
  /** Receives one line per request (no secrets). Silent by default. */
  logger?: (line: string) => void;
  /**
   * What `/_sandbox/health` shows of the log under `log`: lines dropped because writing them
   * failed, and why (the CLI's stdout on a full disk). Not shown by default.
   */
  logStatus?: () => LogStatus;
  /** Merchant-configured test tokens (each must begin with `tok_test_`), beside the built-in ones. */
  extraTokens?: Record<string, TokenBehaviour>;
  /**
   * A webhook URL that receives the events of every key (besides each key's own endpoints), as
   * the CLI's `--webhook-url` sets up for local development. Its endpoint id is `we_default`.
   */
  webhookUrl?: string;
  /** The `whsec_<base64>` secret of `webhookUrl`; a random one by default (see `defaultWebhookSecret`). */
  webhookSecret?: string;
  /** How long one webhook attempt may take before it counts as failed, in ms. Default 10 000. */
  webhookTimeoutMs?: number;
  /**
   * Lets keys register webhook endpoints on private networks (RFC 1918, IPv6 unique-local,
   * carrier-grade NAT), such as a receiver in a CI service network. By default the sandbox sends
   * webhooks to public addresses and to this machine (loopback) only, checked on the address a
   * name resolves to when each webhook is sent; link-local, multicast, unspecified, reserved and
   * cloud-metadata addresses are always refused. `webhookUrl` is yours and is not checked.
   */
  allowPrivateWebhookUrls?: boolean;
  /**
   * Lets keys register webhook endpoints on this machine's loopback (`localhost`, 127.0.0.0/8,
   * `::1`). Default true; `startMockServer` makes it false when it listens on a non-loopback
   * address, so that nobody who reaches the sandbox over the network can make it call (and read
   * back) the services that listen on its machine's loopback. `webhookUrl` is not checked.
   */
  allowLoopbackWebhookUrls?: boolean;
  /**
   * The `fetch` that sends webhook attempts, instead of the network (where every address is
   * checked, see `allowPrivateWebhookUrls`): deliver in process, such as to your app's handler in
   * a test. Nothing it is given is checked.
   */
  webhookFetch?: (url: string, init: RequestInit) => Promise<Response>;
  /**
   * Makes every id (`pay_`, `ref_`, `evt_`, `we_`), signing secret and random choice (retry
   * jitter) repeatable: the same seed and the same requests give the same values. An id the
   * store already holds (a restart on a data directory, another instance of a Redis fleet) is
   * drawn again. Random by default. For tests only: a seeded sandbox's secrets can be guessed.
   */
  seed?: string | number;
  /**
   * A directory that keeps everything of every key across restarts (payments with their
   * timelines, idempotency records, webhook endpoints with their secrets, events, queued
   * deliveries, faults and clocks): each change is written there before its answer is sent.
   * Created if missing; one process at a time (a second one is refused). In memory by default.
   */
  dataDir?: string;
  /**
   * A Valkey 7/8 or Redis 7 server that keeps every key's data, shared by every instance started
   * with the same URL and prefix: a fleet behind a load balancer answers as one sandbox.
   * `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. The password is never
   * printed. Not with `dataDir`. In memory by default.
   */
  redisUrl?: string;
  /** What every key of the store starts with (default `psm:`): sandboxes sharing one server stay apart. */
  redisPrefix?: string;
}

/**
 * The smallest per-key budget (256 KiB). Half of a key's budget may go to its webhook state and
 * up to `MAX_REQUEST_LOG_BYTES` to its request log, both kept before its payments: below this, a
 * key's newest Idempotency-Key records would be forgotten as soon as they are written, and a
 * client's retry would make a second payment.
 *
 * @example
 * createMockServer({ limits: { keyMemoryBudgetBytes: MIN_KEY_MEMORY_BUDGET_BYTES } });
 */
export const MIN_KEY_MEMORY_BUDGET_BYTES = 4 * MAX_REQUEST_LOG_BYTES;

/** The largest request body the sandbox reads by default, in bytes (64 KiB); more is a 413. */
export const DEFAULT_MAX_BODY_BYTES = 65_536;

/** Options with every default filled in. */
export interface ResolvedOptions {
  clock: Clock;
  settlementDelaySeconds: number;
  maxBodyBytes: number;
  maxPaymentsPerKey: number;
  maxPaymentsTotal: number;
  limits: MemoryLimits;
  idempotencyTtlSeconds: number;
  logger: ((line: string) => void) | undefined;
  logStatus: (() => LogStatus) | undefined;
  extraTokens: Record<string, TokenBehaviour>;
  webhookUrl: string | undefined;
  webhookSecret: string | undefined;
  webhookTimeoutMs: number;
  webhookPolicy: WebhookAddressPolicy;
  webhookFetch: ((url: string, init: RequestInit) => Promise<Response>) | undefined;
  seed: string | number | undefined;
  dataDir: string | undefined;
  redisUrl: string | undefined;
  redisPrefix: string;
}

/**
 * What a Redis key prefix may be: 1 to 64 printable ASCII characters without spaces.
 *
 * @example
 * REDIS_PREFIX.test('psm:team-a:'); // true
 */
export const REDIS_PREFIX = /^[\x21-\x7e]{1,64}$/;

function checkRedis(options: MockServerOptions): Pick<ResolvedOptions, 'redisUrl' | 'redisPrefix'> {
  const { redisUrl, redisPrefix } = options;
  if (redisUrl !== undefined) {
    if (typeof redisUrl !== 'string') {
      throw new TypeError(
        `redisUrl must be a redis:// or rediss:// URL; got a ${typeof redisUrl}.`,
      );
    }
    // Throws a RedisUrlError naming what is wrong, with the password masked.
    parseRedisUrl(redisUrl);
    if (options.dataDir !== undefined) {
      throw new TypeError(
        'redisUrl and dataDir cannot be used together: the data lives in one store (Valkey/Redis or a data directory).',
      );
    }
  }
  if (
    redisPrefix !== undefined &&
    (typeof redisPrefix !== 'string' || !REDIS_PREFIX.test(redisPrefix))
  ) {
    throw new TypeError(
      `redisPrefix must be 1 to 64 printable ASCII characters without spaces; got ${JSON.stringify(redisPrefix)}.`,
    );
  }
  return { redisUrl, redisPrefix: redisPrefix ?? DEFAULT_PREFIX };
}

function checkDataDir(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`dataDir must be a directory path; got ${JSON.stringify(value)}.`);
  }
  return value;
}

function checkNumber(name: string, value: number, minimum: number): number {
  if (!Number.isFinite(value) || value < minimum) {
    throw new RangeError(`${name} must be a number ≥ ${minimum}; got ${value}.`);
  }
  return value;
}

/**
 * Fills in the defaults and checks the numbers.
 *
 * @example
 * resolveOptions({ settlementDelaySeconds: 1 }).maxBodyBytes; // 65536
 */
export function resolveOptions(options: MockServerOptions = {}): ResolvedOptions {
  return {
    clock: options.clock ?? systemClock,
    settlementDelaySeconds: checkNumber(
      'settlementDelaySeconds',
      options.settlementDelaySeconds ?? 5,
      0,
    ),
    maxBodyBytes: checkNumber('maxBodyBytes', options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, 1),
    maxPaymentsPerKey: checkNumber('maxPaymentsPerKey', options.maxPaymentsPerKey ?? 10_000, 1),
    maxPaymentsTotal: checkNumber('maxPaymentsTotal', options.maxPaymentsTotal ?? 100_000, 1),
    limits: {
      memoryBudgetBytes: checkNumber(
        'limits.memoryBudgetBytes',
        options.limits?.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES,
        65_536,
      ),
      keyMemoryBudgetBytes: checkNumber(
        'limits.keyMemoryBudgetBytes',
        options.limits?.keyMemoryBudgetBytes ?? DEFAULT_KEY_MEMORY_BUDGET_BYTES,
        MIN_KEY_MEMORY_BUDGET_BYTES,
      ),
    },
    idempotencyTtlSeconds: checkNumber(
      'idempotencyTtlSeconds',
      options.idempotencyTtlSeconds ?? 86_400,
      0,
    ),
    logger: options.logger === undefined ? undefined : neverThrowing(options.logger),
    logStatus: options.logStatus,
    extraTokens: options.extraTokens ?? {},
    webhookUrl: options.webhookUrl,
    webhookSecret: options.webhookSecret,
    webhookTimeoutMs: checkNumber('webhookTimeoutMs', options.webhookTimeoutMs ?? 10_000, 1),
    webhookPolicy: {
      allowPrivate: options.allowPrivateWebhookUrls === true,
      allowLoopback: options.allowLoopbackWebhookUrls !== false,
    },
    webhookFetch: options.webhookFetch,
    seed: options.seed,
    dataDir: checkDataDir(options.dataDir),
    ...checkRedis(options),
  };
}
