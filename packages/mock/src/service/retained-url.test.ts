// What the sandbox keeps of a request (the inspector's record, the Idempotency-Key's record) does not keep its URL alive.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../test-support/harness.js';

// A `gc()` for this test alone: a new context made after the flag is set has one.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const KEYS = 8;
/** Each key's request log holds this many records (under its 64 KiB budget with these bodies). */
const REQUESTS = 40;
const QUERY_CHARS = 7000;

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * The heap the sandbox keeps after each of `KEYS` keys sent `REQUESTS` retrieves and
 * Idempotency-Keyed refunds whose URLs carry a query of `queryChars` characters.
 */
async function retainedAfter(queryChars: number, round: string): Promise<number> {
  const harness = createHarness();
  const query = `?pad=${'q'.repeat(queryChars)}`;
  const before = heapUsed();
  for (let key = 0; key < KEYS; key++) {
    const apiKey = `sk_test_retained_${round}_${key}_0001`;
    const payment = await harness.createPayment({ amount: 1_000_000 }, { apiKey });
    for (let n = 0; n < REQUESTS / 2; n++) {
      const retrieve = await harness.call('GET', `/v1/payments/pay_missing_${n}${query}`, {
        apiKey,
      });
      await retrieve.arrayBuffer();
      const refund = await harness.call('POST', `/v1/payments/${payment.id}/refunds${query}`, {
        apiKey,
        body: { amount: 1 },
        headers: { 'idempotency-key': `retained-${n}` },
      });
      expect(refund.status).toBe(201);
      await refund.arrayBuffer();
    }
  }
  const retained = heapUsed() - before;
  // The harness (and what it keeps) stays alive until measured.
  expect(harness.mock).toBeDefined();
  return retained;
}

describe('what the sandbox keeps of a request', () => {
  it('does not keep its URL alive: a long query costs no retained bytes the budgets do not count', async () => {
    // Warm the path's code first, so compiled code is not counted as kept.
    await retainedAfter(10, 'warm');
    const short = await retainedAfter(10, 'short');
    const long = await retainedAfter(QUERY_CHARS, 'long');
    // A record whose path shares the URL's memory (a V8 string slice) keeps the whole URL:
    // KEYS × REQUESTS × 7,000 bytes (2.2 MB here) that no byte budget counts.
    const kept = KEYS * REQUESTS * QUERY_CHARS;
    expect(long - short).toBeLessThan(kept / 8);
  });
});
