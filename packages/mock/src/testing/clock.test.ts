import { describe, expect, it } from 'vitest';
import { durationMs } from './clock.js';
import { createTestSandbox } from './sandbox.js';

describe('durationMs', () => {
  it('reads named units, added up, and a plain number as milliseconds', () => {
    expect(durationMs({ seconds: 5 })).toBe(5000);
    expect(durationMs({ ms: 250 })).toBe(250);
    expect(durationMs({ minutes: 1, seconds: 30 })).toBe(90_000);
    expect(durationMs({ hours: 1, days: 1 })).toBe(90_000_000);
    expect(durationMs(5000)).toBe(5000);
  });

  it('refuses an unknown unit, no unit, and amounts that are not finite numbers ≥ 0', () => {
    expect(() => durationMs({ secs: 5 })).toThrow('does not know the unit "secs": use ms, seconds');
    expect(() => durationMs({})).toThrow('no unit');
    expect(() => durationMs({ seconds: -1 })).toThrow('got seconds: -1');
    expect(() => durationMs({ seconds: '5' })).toThrow('got seconds: "5"');
    expect(() => durationMs(Number.NaN)).toThrow('takes milliseconds ≥ 0; got NaN');
    expect(() => durationMs('5s')).toThrow(RangeError);
  });
});

describe('sandbox.clock.advance with a named unit', () => {
  it('settles a pending payment after { seconds: 5 }, as the controls’ { seconds: 5 } does', async () => {
    await using sandbox = createTestSandbox({ seed: 'clock-units' });
    const payment = await sandbox.client.payments.create({
      amount: 1000,
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_pending' },
    });
    // Before: { seconds: 5 } was refused ("takes milliseconds"), and 5 meant 5 ms.
    await sandbox.clock.advance({ seconds: 4.999 });
    expect((await sandbox.client.payments.retrieve(payment.id)).status).toBe('PENDING');
    await sandbox.clock.advance({ ms: 1 });
    expect((await sandbox.client.payments.retrieve(payment.id)).status).toBe('SUCCEEDED');
    await expect(sandbox.clock.advance({ secs: 1 } as never)).rejects.toThrow('unit "secs"');
  });
});
