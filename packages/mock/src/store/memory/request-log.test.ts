import { describe, expect, it } from 'vitest';
import { MAX_RECORDED_REQUESTS, MAX_REQUEST_LOG_BYTES } from '../limits.js';
import type { RecordedEntry } from '../request-records.js';
import { RequestLog } from './request-log.js';

function entry(n: number, responseBody: string | null = '{"id":"pay_1"}'): RecordedEntry {
  return {
    requestId: `req_${n}`,
    method: 'GET',
    path: `/v1/payments/pay_${n}`,
    status: 200,
    code: null,
    latencyMs: 1,
    receivedAt: n,
    requestBody: null,
    responseBody,
    truncated: false,
  };
}

/** A log whose reported bytes are summed, as the account's budget sees them. */
function meteredLog(): { log: RequestLog; reported: () => number } {
  let total = 0;
  const log = new RequestLog((delta) => {
    total += delta;
  });
  return { log, reported: () => total };
}

describe('RequestLog', () => {
  it('keeps the newest requests first, at most MAX_RECORDED_REQUESTS', () => {
    const { log, reported } = meteredLog();
    for (let n = 1; n <= MAX_RECORDED_REQUESTS * 3 + 7; n++) log.record(entry(n));
    const kept = log.newestFirst().map((recorded) => recorded.receivedAt);
    const newest = MAX_RECORDED_REQUESTS * 3 + 7;
    expect(kept).toEqual(Array.from({ length: MAX_RECORDED_REQUESTS }, (_, i) => newest - i));
    expect(log.size).toBe(MAX_RECORDED_REQUESTS);
    // What was reported is what is held: the same as recording only the kept ones.
    const fresh = meteredLog();
    for (const recorded of [...log.newestFirst()].reverse()) fresh.log.record(recorded);
    expect(reported()).toBe(fresh.reported());
  });

  it('forgets the oldest past MAX_REQUEST_LOG_BYTES, but always keeps the newest', () => {
    const { log, reported } = meteredLog();
    const big = 'x'.repeat(MAX_REQUEST_LOG_BYTES / 8); // 2 bytes a character: a quarter each
    for (let n = 1; n <= 10; n++) log.record(entry(n, big));
    expect(log.newestFirst().map((recorded) => recorded.receivedAt)).toEqual([10, 9, 8]);
    expect(reported()).toBeLessThanOrEqual(MAX_REQUEST_LOG_BYTES);
    const huge = 'y'.repeat(MAX_REQUEST_LOG_BYTES);
    log.record(entry(11, huge));
    expect(log.newestFirst().map((recorded) => recorded.receivedAt)).toEqual([11]);
    expect(reported()).toBeGreaterThan(MAX_REQUEST_LOG_BYTES);
    log.record(entry(12));
    expect(log.newestFirst().map((recorded) => recorded.receivedAt)).toEqual([12]);
    expect(reported()).toBeLessThan(1024);
  });

  it('starts empty', () => {
    const { log, reported } = meteredLog();
    expect(log.newestFirst()).toEqual([]);
    expect(log.size).toBe(0);
    expect(reported()).toBe(0);
  });
});
