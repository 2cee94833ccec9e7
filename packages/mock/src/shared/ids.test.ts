import { describe, expect, it } from 'vitest';
import {
  newPaymentId,
  newRefundId,
  newRequestId,
  newTestApiKey,
  randomBase62,
  seededRandom,
} from './ids.js';

describe('ids', () => {
  it('formats payment, refund and request ids', () => {
    expect(newPaymentId()).toMatch(/^pay_[A-Za-z0-9]{24}$/);
    expect(newRefundId()).toMatch(/^ref_[A-Za-z0-9]{24}$/);
    expect(newRequestId()).toMatch(/^req_[A-Za-z0-9]+$/);
    expect(newTestApiKey()).toMatch(/^sk_test_[A-Za-z0-9_-]{8,128}$/);
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 5000 }, () => newPaymentId()));
    expect(ids.size).toBe(5000);
  });

  it('uses every base62 character', () => {
    const seen = new Set(randomBase62(20000));
    expect(seen.size).toBe(62);
  });
});

describe('seeded random sources', () => {
  it('repeat the same ids and fractions for the same seed, and differ for another', () => {
    const draw = (seed: string) => {
      const random = seededRandom(seed);
      return [newPaymentId(random), newRefundId(random), random.fraction(), random.bytes(4)];
    };
    expect(draw('checkout')).toEqual(draw('checkout'));
    expect(draw('checkout')).not.toEqual(draw('refunds'));
    expect(seededRandom(7).base62(30)).toBe(seededRandom('7').base62(30));
  });

  it('draw the same ids as every earlier build for a seed (a seeded sandbox repeats across versions)', () => {
    // Drawn by the character-at-a-time base62 before ids were written into one buffer.
    const random = seededRandom('golden');
    expect(random.base62(24)).toBe('zDfIFzEtMWosJ14tjjdo9VYK');
    expect(random.base62(80)).toBe(
      'tm0akQw2UJhiwNmnNuD57cj30odGnXbUD3ejZPTP87AY43JaHDRz8NSWDKfbjDexxfdEj5Cq3mpMoRuU',
    );
    expect(newPaymentId(random)).toBe('pay_YWeyWskmH7OLpLOzEX40EtmS');
    expect(random.base62(1)).toBe('c');
  });

  it('keep fractions in [0, 1) and use every base62 character', () => {
    const random = seededRandom('spread');
    const fractions = Array.from({ length: 2000 }, () => random.fraction());
    expect(Math.min(...fractions)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...fractions)).toBeLessThan(1);
    expect(new Set(random.base62(20000)).size).toBe(62);
  });
});
