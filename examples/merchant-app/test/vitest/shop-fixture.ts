// The vitest fixtures of the shop's suites: a sandbox per test (seeded by the test's name) and the shop wired to it.
import { type TestSandbox, testSandboxFixture } from '@payment-service/mock/testing';
import { test as base } from 'vitest';
import { createShop } from '../../src/app.js';

/** The shop under test, whose webhook endpoint receives the sandbox's deliveries in process. */
export type Shop = ReturnType<typeof createShop>;

/**
 * `test` with `sandbox` (a fresh test sandbox) and `shop` (the app on the sandbox's client,
 * registered as the sandbox's webhook endpoint).
 *
 * @example
 * test('pays', async ({ sandbox, shop }) => { … });
 */
export const test = base.extend<{ sandbox: TestSandbox; shop: Shop }>({
  ...testSandboxFixture(),
  shop: async ({ sandbox }, use) => {
    let secret = '';
    const shop = createShop({ payments: sandbox.client, webhookSecret: () => secret });
    ({ secret } = await sandbox.webhooks.deliverTo(shop.app.fetch, {
      url: 'http://shop.test/webhooks',
    }));
    await use(shop);
  },
});

/** Posts a checkout to the shop, as its frontend would. */
export async function checkout(shop: Shop, orderId: string, token: string) {
  const response = await shop.app.request('/checkout', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, amount: 150_000, currency: 'KZT', token }),
  });
  return { status: response.status, body: (await response.json()) as { paymentId: string } };
}
