// Redis stores for tests: several instances of a fleet on one test server, each under a fresh prefix.

import type { components, SandboxComponents } from '@payment-service/openapi';
import { createRecordChecks } from '../app/record-checks.js';
import { createTokenTable } from '../domain/tokens.js';
import {
  openapiRequestValidators,
  sandboxRequestValidators,
} from '../generated/request-validators.js';
import { createSchemaValidators } from '../shared/validation.js';
import type { StoreLimits } from '../store/limits.js';
import type { RecordChecks } from '../store/record-checks.js';
import type { IdempotencyRecord, PackedTimeline, PaymentRecord } from '../store/records.js';
import { createRedisClient } from '../store/redis/client.js';
import { RedisStore } from '../store/redis/redis-store.js';
import type { RecordedEntry } from '../store/request-records.js';
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

/** The record checks of a server with default options (the spec, the built-in tokens, loopback webhooks allowed). */
export const RECORD_CHECKS: RecordChecks = createRecordChecks({
  validators: createSchemaValidators<components['schemas'], keyof typeof openapiRequestValidators>(
    openapiRequestValidators,
  ),
  sandboxValidators: createSchemaValidators<
    SandboxComponents['schemas'],
    keyof typeof sandboxRequestValidators
  >(sandboxRequestValidators),
  tokens: createTokenTable({}),
  webhookPolicy: { allowPrivate: false, allowLoopback: true },
});

/**
 * Checks that let every record through: for the store's own tests, whose records are made up to
 * test what the store does with them (caps, leases, orders), not what they hold. Every server
 * (`createRuntime`) and the tests of the checks use `RECORD_CHECKS`.
 */
export const UNCHECKED: RecordChecks = {
  payment: () => undefined,
  idempotencyRecord: () => undefined,
  faults: () => undefined,
  offset: () => undefined,
  endpoint: () => undefined,
  event: () => undefined,
  delivery: () => undefined,
  attempt: () => undefined,
  request: () => undefined,
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
    /** Default `UNCHECKED` (made-up records); `RECORD_CHECKS` to check what is read back. */
    checks?: RecordChecks;
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
        checks: options.checks ?? UNCHECKED,
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
