import { describe, expect, it } from 'vitest';
import { deliveryOutcome, majorAmount } from './display.js';
import { inspectorScript } from './inspector-script.js';

describe('majorAmount', () => {
  it('shows minor units as the major amount with the currency, by its ISO 4217 exponent', () => {
    // Before: the console showed "150000 KZT", a hundred times the amount a reader expects.
    expect(majorAmount(150_000, 'KZT')).toBe('1500.00 KZT');
    expect(majorAmount(2500, 'RUB')).toBe('25.00 RUB');
    expect(majorAmount(5, 'KZT')).toBe('0.05 KZT');
    expect(majorAmount(500, 'JPY')).toBe('500 JPY');
    expect(majorAmount(1234, 'KWD')).toBe('1.234 KWD');
    expect(majorAmount(9_007_199_254_740_991, 'KZT')).toBe('90071992547409.91 KZT');
  });

  it('gives up on a code Intl refuses or an amount that is not a safe integer', () => {
    expect(majorAmount(100, 'kz')).toBeUndefined();
    expect(majorAmount(1.5, 'KZT')).toBeUndefined();
  });
});

describe('deliveryOutcome', () => {
  it('is green only for a 2xx answer', () => {
    expect(deliveryOutcome(200, null)).toEqual({ text: '200', kind: 'ok' });
    expect(deliveryOutcome(204, null).kind).toBe('ok');
    for (const status of [302, 400, 410, 500])
      expect(deliveryOutcome(status, null).kind).toBe('bad');
  });

  it('is red for an attempt with no answer (before: green, as the text "error")', () => {
    expect(deliveryOutcome(null, 'timeout')).toEqual({ text: 'failed', kind: 'bad' });
    expect(deliveryOutcome(null, 'connection_error: ECONNREFUSED')).toEqual({
      text: 'failed',
      kind: 'bad',
    });
    expect(deliveryOutcome(null, 'dropped: the key already had 10000 attempts waiting')).toEqual({
      text: 'dropped',
      kind: 'bad',
    });
  });
});

describe('the served inspector script', () => {
  it('carries the display helpers and parses as a script', () => {
    const script = inspectorScript();
    expect(script).toContain('function majorAmount');
    expect(script).toContain('function deliveryOutcome');
    expect(() => new Function(script)).not.toThrow();
  });
});
