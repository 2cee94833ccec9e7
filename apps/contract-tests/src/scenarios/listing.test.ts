// Listing payments through the SDK's pagination helper: `listAll` follows the cursor for the caller, one request per page. The listing's own facts (newest first, cursor, page size, an empty account) are @payment-service/contract's checks, run in contract-check.test.ts.
import type { RequestLogEntry } from '@payment-service/sdk';
import { describe, expect, it } from 'vitest';
import { targetNames } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

describe.each(targetNames())('listAll (%s)', (name) => {
  const ctx = useTarget(name);

  async function createSome(count: number, apiKey: string) {
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
    return ids;
  }

  it('iterates every payment once with for await, one request per page', async () => {
    const apiKey = ctx.newApiKey();
    const ids = await createSome(12, apiKey);
    const log: RequestLogEntry[] = [];
    const client = ctx.client(apiKey, { logger: (entry) => log.push(entry) });
    const seen: string[] = [];
    for await (const payment of client.payments.listAll({ limit: 5 })) seen.push(payment.id);
    expect(seen).toEqual([...ids].reverse());
    expect(log.map((entry) => entry.status)).toEqual([200, 200, 200]);
  });

  it('stops early when the loop breaks: no page past the one in hand is fetched', async () => {
    const apiKey = ctx.newApiKey();
    await createSome(6, apiKey);
    const log: RequestLogEntry[] = [];
    const client = ctx.client(apiKey, { logger: (entry) => log.push(entry) });
    let seen = 0;
    for await (const _payment of client.payments.listAll({ limit: 2 })) {
      seen++;
      if (seen === 3) break;
    }
    expect(log).toHaveLength(2);
  });

  it('yields nothing for an account without payments', async () => {
    const client = ctx.client();
    const seen: unknown[] = [];
    for await (const payment of client.payments.listAll()) seen.push(payment);
    expect(seen).toEqual([]);
  });
});
