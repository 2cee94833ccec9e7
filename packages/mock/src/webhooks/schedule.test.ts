import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, retryDelayMs } from './schedule.js';

describe('retry schedule', () => {
  it('backs off 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h: nine attempts', () => {
    expect(RETRY_DELAYS_SECONDS).toEqual([5, 30, 120, 600, 1800, 3600, 7200, 14400]);
    expect(MAX_ATTEMPTS).toBe(9);
    expect(RETRY_DELAYS_SECONDS.map((_, index) => retryDelayMs(index + 1, () => 0.5))).toEqual(
      RETRY_DELAYS_SECONDS.map((seconds) => seconds * 1000),
    );
    expect(retryDelayMs(MAX_ATTEMPTS)).toBeUndefined();
  });

  it('jitters each delay by at most ±20%', () => {
    expect(retryDelayMs(1, () => 0)).toBe(4000);
    expect(retryDelayMs(1, () => 0.999999)).toBe(6000);
    for (let index = 0; index < 100; index++) {
      const delay = retryDelayMs(2) as number;
      expect(delay).toBeGreaterThanOrEqual(24_000);
      expect(delay).toBeLessThanOrEqual(36_000);
    }
  });
});
