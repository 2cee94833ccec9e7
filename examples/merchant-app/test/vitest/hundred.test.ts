import { describe, expect } from 'vitest';
import { checkout, test } from './shop-fixture.js';

// One hundred independent checkouts, each in its own sandbox: the cost of a test of this kind.
describe('a hundred pending payments, one sandbox each', () => {
  test.for(Array.from({ length: 100 }, (_, index) => index))(
    'order %i is paid after settlement',
    async (index, { sandbox, shop }) => {
      await checkout(shop, `order-${index}`, 'tok_test_pending');
      await sandbox.clock.advance(5_000);
      expect(shop.orders.get(`order-${index}`)?.status).toBe('paid');
    },
  );
});
