import { describe, expect, it } from 'vitest';
import { STORES } from '../test-support/async-store.js';
import { createHarness } from '../test-support/harness.js';
import { MAX_CLOCK_OFFSET_SECONDS } from './account-service.js';

const YEAR = 31_557_600;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

for (const { name: store, hooks } of STORES) {
  describe(store, () => {
    describe('the bounded sandbox clock', () => {
      it('advances up to 100 years in total, then answers 400 naming the limit and moves nothing', async () => {
        const { json, createPayment } = createHarness({}, hooks);
        expect(MAX_CLOCK_OFFSET_SECONDS).toBe(100 * YEAR);
        let clock = await json('POST', '/_sandbox/clock/advance', { body: { seconds: 1 } });
        const step = 86_400 * 365;
        let total = 1;
        while (total + step <= MAX_CLOCK_OFFSET_SECONDS) {
          clock = await json('POST', '/_sandbox/clock/advance', { body: { seconds: step } });
          if (clock.status !== 200) break;
          total += step;
        }
        expect(clock.status).toBe(200);
        expect(clock.body.now).toMatch(TIMESTAMP);
        const refused = await json('POST', '/_sandbox/clock/advance', { body: { seconds: step } });
        expect(refused.status).toBe(400);
        expect(refused.body.code).toBe('invalid_request');
        expect(refused.body.param).toBe('seconds');
        expect(refused.body.detail).toContain(String(MAX_CLOCK_OFFSET_SECONDS));
        const after = await json('GET', '/_sandbox/clock');
        expect(after.body.offset_seconds).toBe(total);
        const payment = await createPayment();
        expect(payment.created_at).toMatch(TIMESTAMP);
      });
    });
  });
}
