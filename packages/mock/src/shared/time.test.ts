import { describe, expect, it } from 'vitest';
import { formatLogTime, formatTimestamp } from './time.js';

describe('formatTimestamp', () => {
  it('drops milliseconds and ends with Z', () => {
    expect(formatTimestamp(Date.UTC(2025, 0, 2, 3, 4, 5, 678))).toBe('2025-01-02T03:04:05Z');
    expect(formatTimestamp(0)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
});

describe('formatLogTime', () => {
  it('is the text of toISOString, within a second and across seconds', () => {
    const start = Date.UTC(2026, 10, 24, 23, 59, 58, 990);
    // Every millisecond over three seconds (and a day's end), then back in time.
    const times = [...Array.from({ length: 3000 }, (_, i) => start + i), start - 86_400_000, 0];
    for (const time of times) expect(formatLogTime(time)).toBe(new Date(time).toISOString());
  });

  it('pads milliseconds and ignores a fraction of one', () => {
    expect(formatLogTime(Date.UTC(2025, 0, 2, 3, 4, 5, 6))).toBe('2025-01-02T03:04:05.006Z');
    expect(formatLogTime(Date.UTC(2025, 0, 2, 3, 4, 5, 60) + 0.7)).toBe('2025-01-02T03:04:05.060Z');
  });
});
