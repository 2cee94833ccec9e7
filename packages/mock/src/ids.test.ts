import { describe, expect, it } from 'vitest';
import { newPaymentId, newRefundId, newRequestId, newTestApiKey, randomBase62 } from './ids.js';

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
