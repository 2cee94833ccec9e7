import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  isRetryableStatus,
  maxRetryDelayMs,
  parseRetryAfter,
  retryDelayMs,
  sleep,
} from './retry.js';

describe('isRetryableStatus', () => {
  it.each([408, 429, 500, 502, 503, 504, 599])('retries %i', (status) => {
    expect(isRetryableStatus(status)).toBe(true);
  });
  it.each([400, 401, 403, 404, 405, 413, 415, 422])('never retries %i', (status) => {
    expect(isRetryableStatus(status)).toBe(false);
  });
  it('retries a 409 only for idempotency_key_in_use', () => {
    expect(isRetryableStatus(409, 'idempotency_key_in_use')).toBe(true);
    expect(isRetryableStatus(409, 'invalid_state')).toBe(false);
    expect(isRetryableStatus(409)).toBe(false);
  });
});

describe('retryDelayMs', () => {
  it('doubles from 500 ms with jitter between half and all of the step', () => {
    expect([1, 2, 3, 4].map((retry) => retryDelayMs(retry, undefined, () => 1))).toEqual([
      500, 1000, 2000, 4000,
    ]);
    expect([1, 2, 3].map((retry) => retryDelayMs(retry, undefined, () => 0))).toEqual([
      250, 500, 1000,
    ]);
    for (let i = 0; i < 100; i += 1) {
      const delay = retryDelayMs(2, undefined) as number;
      expect(delay).toBeGreaterThanOrEqual(500);
      expect(delay).toBeLessThanOrEqual(1000);
    }
  });
  it('caps the backoff at 8 s', () => {
    expect(retryDelayMs(20, undefined, () => 1)).toBe(maxRetryDelayMs);
  });
  it('uses Retry-After up to 60 s, and refuses to wait longer', () => {
    expect(retryDelayMs(1, 0)).toBe(0);
    expect(retryDelayMs(3, 2)).toBe(2_000);
    expect(retryDelayMs(1, 60)).toBe(60_000);
    expect(retryDelayMs(1, 61)).toBeUndefined();
  });
});

describe('sleep', () => {
  it('waits, and rejects at once when the signal aborts', async () => {
    vi.useFakeTimers();
    let slept = false;
    const sleeping = sleep(30, undefined, () => new Error('never')).then(() => {
      slept = true;
    });
    await vi.advanceTimersByTimeAsync(29);
    expect(slept).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(slept).toBe(true);
    vi.useRealTimers();
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal, () => new Error('cancelled'));
    controller.abort();
    await expect(pending).rejects.toThrow('cancelled');
    await expect(sleep(10, AbortSignal.abort(), () => new Error('early'))).rejects.toThrow('early');
  });
});

describe('parseRetryAfter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads delay-seconds and IMF-fixdate HTTP-dates', () => {
    vi.useFakeTimers({ now: Date.parse('2025-01-01T00:00:00Z') });
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter(' 120 ')).toBe(120);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT')).toBe(30);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT')).toBe(0);
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it.each([
    '-1',
    '+5',
    '5, 10',
    '60.5',
    '1e3',
    '0x10',
    '',
    'soon',
    '2025-01-01T00:00:30Z',
    'Wed, 01 Jan 2025 00:00:30 UTC',
    'Thu, 01 Jan 2025 00:00:30 GMT', // 1 January 2025 is a Wednesday
    'Wed, 1 Jan 2025 00:00:30 GMT',
    'Wednesday, 01-Jan-25 00:00:30 GMT', // RFC 850, obsolete
    'Wed Jan  1 00:00:30 2025', // asctime, obsolete
  ])('refuses %j: the normal backoff applies', (value) => {
    vi.useFakeTimers({ now: Date.parse('2025-01-01T00:00:00Z') });
    expect(parseRetryAfter(value)).toBeUndefined();
  });
});
