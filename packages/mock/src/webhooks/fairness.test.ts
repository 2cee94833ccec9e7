import { afterEach, describe, expect, it } from 'vitest';
import { Account } from '../store/memory/account.js';
import { handleOf } from '../store/memory/memory-seam.js';
import { AccountWebhooks } from '../store/memory/webhook-state.js';
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
    account: handleOf(account),
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
      settleDue: async () => ({ events: [] }),
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

  it('serves a new key at once while eight keys with hanging receivers fill every shared slot', async () => {
    const calls: string[] = [];
    let allHanging: () => void = () => {};
    const filled = new Promise<void>((resolve) => {
      allHanging = resolve;
    });
    let victimServed: () => void = () => {};
    const served = new Promise<void>((resolve) => {
      victimServed = resolve;
    });
    dispatcher = new WebhookDispatcher({
      clock: { now: () => NOW },
      timeoutMs: 60_000,
      settleDue: async () => ({ events: [] }),
      fetch: (input, init) => {
        const url = String(input);
        calls.push(url);
        if (url.includes('victim')) {
          victimServed();
          return Promise.resolve(new Response('ok'));
        }
        if (calls.length === 32) allHanging();
        return new Promise((_, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        });
      },
    });
    for (let key = 0; key < 8; key++) {
      const hanging = accountWithEndpoint(`http://127.0.0.1:1/hang-${key}`);
      dispatcher.deliver(events(hanging, 12, `h${key}_`));
    }
    await filled;
    dispatcher.deliver(events(accountWithEndpoint('http://127.0.0.1:2/victim'), 1, 'v'));
    await served;
    // Every one of the 32 shared slots still hangs: the victim did not wait for a timeout.
    expect(calls.filter((url) => url.includes('hang'))).toHaveLength(32);
  });

  it('hands freed slots out round robin, an equal share per key', async () => {
    const calls: string[] = [];
    const answers: Array<() => void> = [];
    let called: () => void = () => {};
    dispatcher = new WebhookDispatcher({
      clock: { now: () => NOW },
      timeoutMs: 60_000,
      maxConcurrent: 2,
      maxConcurrentPerKey: 4,
      settleDue: async () => ({ events: [] }),
      fetch: (input) => {
        calls.push(new URL(String(input)).pathname);
        called();
        return new Promise((resolve) => answers.push(() => resolve(new Response('ok'))));
      },
    });
    const twoCalls = () =>
      new Promise<void>((resolve) => {
        const target = calls.length + 2;
        called = () => {
          if (calls.length >= target) resolve();
        };
      });
    // Key A's events are queued first: insertion order would give it every slot.
    let started = twoCalls();
    dispatcher.deliver(events(accountWithEndpoint('http://127.0.0.1:1/a'), 6, 'a'));
    dispatcher.deliver(events(accountWithEndpoint('http://127.0.0.1:1/b'), 6, 'b'));
    await started;
    for (let round = 0; round < 3; round++) {
      started = twoCalls();
      for (const answer of answers.splice(0)) answer();
      await started;
    }
    // Two slots, two keys: every pair of attempts is one of each.
    for (let pair = 0; pair < 4; pair++) {
      expect(calls.slice(pair * 2, pair * 2 + 2).sort()).toEqual(['/a', '/b']);
    }
  });
});
