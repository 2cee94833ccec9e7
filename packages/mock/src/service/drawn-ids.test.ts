// The service on a store that finds the drawn ids held (a seeded sandbox draws them again): it draws anew, and gives up on a store that refuses more ids than a key can hold.
import { describe, expect, it } from 'vitest';
import { MAX_ENDPOINTS_PER_KEY, MAX_EVENTS_PER_KEY } from '../store/limits.js';
import { MemorySeam } from '../store/memory/memory-seam.js';
import type { MemoryStore } from '../store/memory/memory-store.js';
import {
  type AccountStore,
  type SandboxStore,
  StoreUnavailableError,
  type WebhookStore,
} from '../store/store.js';
import { asyncStore } from '../test-support/async-store.js';
import {
  roomyMemoryStore,
  testSandboxState,
  wrappedAccounts,
} from '../test-support/sandbox-state.js';
import { AccountService } from './account-service.js';

const KEY = 'sk_test_drawn_ids_01';

/** How many calls of each kind the store refuses as held (Infinity: every one), and the ids tried. */
interface Refusals {
  payments: number;
  endpoints: number;
  events: number;
  tried: { payments: string[]; endpoints: string[]; events: string[] };
}

/**
 * `target` with `overrides` in front, every other member read from it (methods bound to it): a
 * proxy of an empty object, so no invariant of the target's own properties binds it.
 */
function overridden<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy({} as T, {
    get(_, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A store that answers "held" to the next refusals of each kind, without asking the store under it. */
function refusingSandbox(seam: (store: MemoryStore) => SandboxStore, maxPaymentsPerKey = 5) {
  const memory = roomyMemoryStore(maxPaymentsPerKey);
  const refusals: Refusals = {
    payments: 0,
    endpoints: 0,
    events: 0,
    tried: { payments: [], endpoints: [], events: [] },
  };
  const inner = seam(memory);
  const webhooks = (state: WebhookStore): WebhookStore =>
    overridden(state, {
      async saveEndpoint(record) {
        refusals.tried.endpoints.push(record.endpoint.id);
        if (refusals.endpoints-- > 0) return 'id held';
        return state.saveEndpoint(record);
      },
      async rememberEvent(event) {
        refusals.tried.events.push(event.id);
        if (refusals.events-- > 0) return false;
        return state.rememberEvent(event);
      },
    });
  const refusing = (account: AccountStore): AccountStore => {
    const overrides: Partial<AccountStore> = {
      async createPayment(record, idempotency) {
        refusals.tried.payments.push(record.id);
        if (refusals.payments-- > 0) return undefined;
        return account.createPayment(record, idempotency);
      },
      webhookState: () => webhooks(account.webhookState()),
    };
    Object.defineProperty(overrides, 'webhooks', {
      get: () => (account.webhooks === undefined ? undefined : webhooks(account.webhooks)),
      enumerable: true,
    });
    return overridden(account, overrides);
  };
  const store = wrappedAccounts(inner, refusing);
  const sandbox = { ...testSandboxState(store), maxPaymentsPerKey };
  return { service: new AccountService(sandbox, KEY), refusals };
}

const CREATE = {
  amount: 1000,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_success' },
} as const;

/** Every item of `list` once only. */
function expectDistinct(list: readonly string[]): void {
  expect(new Set(list).size).toBe(list.length);
}

for (const { name, seam } of [
  {
    name: 'on the memory store',
    seam: (memory: MemoryStore): SandboxStore => new MemorySeam(memory),
  },
  { name: 'on an asynchronous store', seam: asyncStore },
]) {
  describe(`ids found held by the store, ${name}`, () => {
    it('makes the payment on a new id, its event too: the answer is the payment stored', async () => {
      const { service, refusals } = refusingSandbox(seam);
      await service.webhooks.createEndpoint({ url: 'https://receiver.example/hooks' });
      refusals.payments = 3;
      refusals.tried.events.length = 0;
      const { result, events } = await service.payments.create(CREATE);
      if (!result.ok) throw new Error('the create failed');
      const tried = refusals.tried.payments;
      expect(tried).toHaveLength(4);
      expectDistinct(tried);
      expect(result.body.id).toBe(tried[3]);
      expect(JSON.parse(result.text ?? '{}').id).toBe(tried[3]);
      const stored = [...((await (await service.find())?.storedPayments()) ?? [])];
      expect(stored.map((payment) => payment.id)).toEqual([tried[3]]);
      // The event kept and sent names the payment stored.
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0]?.event.body ?? '{}').data.object.id).toBe(tried[3]);
    });

    it('answers 503 store_unavailable, storing nothing, when the store refuses more ids than a key holds', async () => {
      const { service, refusals } = refusingSandbox(seam, 5);
      refusals.payments = Number.POSITIVE_INFINITY;
      await expect(service.payments.create(CREATE)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(refusals.tried.payments).toHaveLength(6);
      expect(await (await service.find())?.listPayments(10)).toEqual({ data: [], has_more: false });
    });

    it('registers an endpoint on a new id and a new secret; gives up past the cap of endpoints', async () => {
      const { service, refusals } = refusingSandbox(seam);
      refusals.endpoints = 2;
      const registered = await service.webhooks.createEndpoint({ url: 'https://a.example/hooks' });
      if (!registered.ok) throw new Error('the registration failed');
      expect(refusals.tried.endpoints).toHaveLength(3);
      expectDistinct(refusals.tried.endpoints);
      expect(registered.body.id).toBe(refusals.tried.endpoints[2]);
      const listed = await service.webhooks.listEndpoints();
      expect(listed.ok && listed.body.data.map((endpoint) => endpoint.id)).toEqual([
        registered.body.id,
      ]);
      refusals.endpoints = Number.POSITIVE_INFINITY;
      refusals.tried.endpoints.length = 0;
      await expect(
        service.webhooks.createEndpoint({ url: 'https://b.example/hooks' }),
      ).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(refusals.tried.endpoints).toHaveLength(MAX_ENDPOINTS_PER_KEY + 1);
    });

    it('keeps an event on a new id; past MAX_EVENTS_PER_KEY refusals sends it unkept, the payment made', async () => {
      const { service, refusals } = refusingSandbox(seam);
      await service.webhooks.createEndpoint({ url: 'https://receiver.example/hooks' });
      refusals.events = 2;
      const first = await service.payments.create(CREATE);
      expect(refusals.tried.events).toHaveLength(3);
      expectDistinct(refusals.tried.events);
      expect(first.events.map((delivery) => delivery.event.id)).toEqual([refusals.tried.events[2]]);
      refusals.events = Number.POSITIVE_INFINITY;
      refusals.tried.events.length = 0;
      const second = await service.payments.create(CREATE);
      expect(second.result.ok).toBe(true);
      expect(refusals.tried.events).toHaveLength(MAX_EVENTS_PER_KEY);
      expect(second.events).toHaveLength(1);
    });
  });
}
