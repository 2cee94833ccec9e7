// Listing payments: newest first, cursor pagination by hand and with `for await`, each key sees only its own.
import { describe, expect, it } from 'vitest';
import { targetNames } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

describe.each(targetNames())('list payments (%s)', (name) => {
  const ctx = useTarget(name);

  async function createSome(count: number, apiKey = ctx.newApiKey()) {
    const client = ctx.client(apiKey);
    const ids: string[] = [];
    for (let index = 0; index < count; index++) {
      const payment = await client.payments.create({
        amount: 100 + index,
        currency: 'RUB',
        payment_method: { type: 'token', token: 'tok_test_success' },
      });
      ids.push(payment.id);
    }
    return { client, ids, apiKey };
  }

  it('pages through every payment newest first, each exactly once', async () => {
    const { client, ids } = await createSome(7);
    const seen: string[] = [];
    let startingAfter: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await client.payments.list({
        limit: 3,
        ...(startingAfter ? { starting_after: startingAfter } : {}),
      });
      pages++;
      expect(page.object).toBe('list');
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.data.map((payment) => payment.id));
      if (!page.has_more) break;
      startingAfter = page.data.at(-1)?.id;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('iterates every page with for await', async () => {
    const { client, ids } = await createSome(12);
    const seen: string[] = [];
    for await (const payment of client.payments.listAll({ limit: 5 })) seen.push(payment.id);
    expect(seen).toEqual([...ids].reverse());
  });

  it('defaults to ten per page', async () => {
    const { client } = await createSome(11);
    const page = await client.payments.list();
    expect(page.data).toHaveLength(10);
    expect(page.has_more).toBe(true);
  });

  it('lists nothing for a new key', async () => {
    await createSome(2);
    const page = await ctx.client().payments.list();
    expect(page).toEqual({ object: 'list', data: [], has_more: false });
  });
});
