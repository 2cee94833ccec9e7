// Redis stores for tests: several instances of a fleet on one test server, each under a fresh prefix.

import type { components } from '@payment-service/openapi';
import type { StoreLimits } from '../store/accounts.js';
import type { IdempotencyRecord, PackedTimeline, PaymentRecord } from '../store/records.js';
import { createRedisClient } from '../store/redis/client.js';
import { RedisStore } from '../store/redis/redis-store.js';
import type { RecordedEntry } from '../store/request-log.js';
import { testPayment } from './payment.js';

type Payment = components['schemas']['Payment'];

/** Limits roomy enough that no test hits one by accident. */
export const ROOMY_LIMITS: StoreLimits = {
  maxPaymentsPerKey: 1000,
  maxPaymentsTotal: 10_000,
  maxIdempotencyRecordsPerKey: 1000,
  maxIdempotencyRecordsTotal: 10_000,
  maxAccounts: 100,
  memoryBudgetBytes: 1 << 26,
  keyMemoryBudgetBytes: 1 << 22,
  idleMs: 3_600_000,
};

let prefixes = 0;

/**
 * `count` stores (instances of one fleet) on `url` under one new prefix; `close()` ends them.
 *
 * @example
 * const { stores: [a, b], close } = await fleet(redis.url, 2);
 */
export async function fleet(
  url: string,
  count: number,
  options: {
    limits?: StoreLimits;
    clock?: () => number;
    leaseMs?: number;
    log?: (line: string) => void;
  } = {},
): Promise<{ stores: RedisStore[]; prefix: string; close(): Promise<void> }> {
  prefixes++;
  const prefix = `t${process.pid}-${prefixes}:`;
  const stores: RedisStore[] = [];
  for (let index = 0; index < count; index++) {
    const client = await createRedisClient(url, { commandTimeoutMs: 1000 });
    stores.push(
      await RedisStore.connect(client, {
        limits: options.limits ?? ROOMY_LIMITS,
        prefix,
        ...(options.clock === undefined ? {} : { clock: options.clock }),
        ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
        ...(options.log === undefined ? {} : { log: options.log }),
      }),
    );
  }
  return {
    stores,
    prefix,
    close: async () => {
      await Promise.all(stores.map((store) => store.close()));
    },
  };
}

/** A payment record as the service makes one. */
export function paymentRecord(
  id: string,
  overrides: Partial<Payment> = {},
  settlesAt?: number,
): PaymentRecord {
  const value = testPayment(id, overrides);
  const timeline: PackedTimeline = [0, value.status, value.amount, null];
  return { id, json: JSON.stringify(value), token: 'tok_test_success', settlesAt, timeline };
}

/** An inspector's record of a GET answered 200, received at `receivedAt`. */
export function requestEntry(requestId: string, receivedAt = 0): RecordedEntry {
  return {
    requestId,
    method: 'GET',
    path: '/v1/payments',
    status: 200,
    code: null,
    latencyMs: 1,
    receivedAt,
    requestBody: null,
    responseBody: '{}',
    truncated: false,
  };
}

/** An in-flight record of a create with the Idempotency-Key `key`. */
export function inFlightRecord(
  key: string,
  bodyFingerprint: string,
  expiresAt = 1000,
): IdempotencyRecord {
  return {
    key,
    method: 'POST',
    path: '/v1/payments',
    bodyFingerprint,
    expiresAt,
    serverExpiresAt: expiresAt,
  };
}
