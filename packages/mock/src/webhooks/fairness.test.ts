import { afterEach, describe, expect, it } from 'vitest';
import { Account } from '../store/account.js';
import { AccountWebhooks } from '../store/webhook-state.js';
import { type Delivery, WebhookDispatcher } from './dispatcher.js';

const NOW = Date.UTC(2025, 0, 15, 12);

function accountWithEndpoint(url: string): Account {
  const account = new Account();
  account.webhooks = new AccountWebhooks();
  account.webhooks.endpoints.set('we_1', {
    endpoint: {
      id: 'we_1',
      object: 'webhook_endpoint',
      url,
      events: null,
      status: 'enabled',
      created_at: '2025-01-15T12:00:00Z',
    },
    key: Buffer.alloc(32, 1),
  });
  return account;
}

function events(account: Account, count: number, prefix: string): Delivery[] {
  return Array.from({ length: count }, (_, index) => ({
    account,
    event: { id: `evt_${prefix}${index}`, type: 'payment.succeeded' as const, body: '{}' },
    dueAt: NOW,
  }));
}

let dispatcher: WebhookDispatcher | undefined;
afterEach(() => dispatcher?.close());

describe('fair webhook delivery', () => {
  it('a hanging receiver of one key holds at most its own slots; another key is served at once', async () => {
    const calls: string[] = [];
    let neighbourServed: () => void = () => {};
    const served = new Promise<void>((resolve) => {
      neighbourServed = resolve;
    });
    dispatcher = new WebhookDispatcher({
      clock: { now: () => NOW },
      timeoutMs: 60_000,
      maxConcurrent: 32,
      maxConcurrentPerKey: 4,
      settleDue: () => ({ events: [] }),
      fetch: (input, init) => {
        const url = String(input);
        calls.push(url);
        if (url.includes('hang')) {
          return new Promise((_, reject) => {
            init?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
          });
        }
        neighbourServed();
        return Promise.resolve(new Response('ok'));
      },
    });
    const hanging = accountWithEndpoint('http://127.0.0.1:1/hang');
    const neighbour = accountWithEndpoint('http://127.0.0.1:2/ok');
    dispatcher.deliver(events(hanging, 64, 'a'));
    dispatcher.deliver(events(neighbour, 1, 'b'));
    await served;
    expect(calls.filter((url) => url.includes('hang')).length).toBeLessThanOrEqual(4);
    expect(calls.filter((url) => url.includes('/ok'))).toHaveLength(1);
  });
});
