// The payments facet on a store whose compare-and-set is refused: another change came first (as on a networked store).
import { describe, expect, it } from 'vitest';
import { MemorySeam } from '../store/memory/memory-seam.js';
import type { MemoryStore } from '../store/memory/memory-store.js';
import type { AccountStore, SandboxStore } from '../store/store.js';
import { asyncStore } from '../test-support/async-store.js';
import {
  roomyMemoryStore,
  testSandboxState,
  wrappedAccounts,
} from '../test-support/sandbox-state.js';
import { AccountService } from './account-service.js';
import { TRANSITION_ATTEMPTS } from './payments-facet.js';

const KEY = 'sk_test_payments_facet_01';

/**
 * A sandbox whose store refuses the next `refusals` transitions; before each refusal it lets
 * `concurrent` change the payment first, as another instance would.
 */
function racingSandbox(
  concurrent: (account: AccountStore, id: string) => Promise<void>,
  seam: (store: MemoryStore) => SandboxStore,
) {
  const memory = roomyMemoryStore();
  const race = { refusals: 0 };
  const inner = seam(memory);
  const racing = (account: AccountStore): AccountStore =>
    new Proxy(account, {
      get(target, property, receiver) {
        if (property !== 'transitionPayment') return Reflect.get(target, property, receiver);
        return async (...args: Parameters<AccountStore['transitionPayment']>) => {
          if (race.refusals === 0) return target.transitionPayment(...args);
          race.refusals--;
          await concurrent(target, args[0]);
          return false;
        };
      },
    });
  // The service here opens no request session: each of its calls finds the account.
  const store = wrappedAccounts(inner, racing);
  const sandbox = testSandboxState(store);
  return { service: new AccountService(sandbox, KEY), race };
}

/** Creates an AUTHORIZED payment of the key: its id. */
async function authorized(service: AccountService): Promise<string> {
  const payment_method = { type: 'token', token: 'tok_test_success' } as const;
  const { result: created } = await service.payments.create({
    amount: 1000,
    currency: 'KZT',
    capture: false,
    payment_method,
  });
  if (!created.ok) throw new Error('the create failed');
  return created.body.id;
}

for (const { name, seam } of [
  {
    name: 'on the memory store',
    seam: (memory: MemoryStore): SandboxStore => new MemorySeam(memory),
  },
  { name: 'on an asynchronous store', seam: asyncStore },
]) {
  /** Captures an AUTHORIZED payment while the store refuses `refusals` transitions. */
  async function captureRacing(
    refusals: number,
    concurrent: (account: AccountStore, id: string) => Promise<void>,
  ) {
    const { service, race } = racingSandbox(concurrent, seam);
    const id = await authorized(service);
    race.refusals = refusals;
    const { result: captured } = await service.payments.capture(id, undefined);
    const stored = await (await service.find())?.payment(id);
    return { captured, changes: stored?.timeline.map((step) => step.change), stored };
  }

  describe(`payments facet on a refused compare-and-set, ${name}`, () => {
    it('makes the change again on the new state: a capture raced by a cancel answers 409 invalid_state', async () => {
      const { captured, changes } = await captureRacing(1, async (account, id) => {
        const read = await account.payment(id);
        if (read === undefined) return;
        const canceled = { ...read.payment, status: 'CANCELED' as const };
        const step = { at: 0, change: 'canceled' as const, status: 'CANCELED' as const, amount: 0 };
        await account.transitionPayment(id, read.json, canceled, step);
      });
      expect(captured.ok === false && captured.problem.code).toBe('invalid_state');
      expect(changes).toEqual(['created', 'canceled']);
    });

    it('applies the change once when a refusal changed nothing it depends on', async () => {
      const { captured, changes } = await captureRacing(1, async () => {});
      expect(captured.ok && captured.body.status).toBe('SUCCEEDED');
      expect(changes).toEqual(['created', 'captured']);
    });

    it('answers the domain problem, not 409, however many changes came first: five refunds of 300 on 1000', async () => {
      // Each refusal lands another refund of 300 first, as concurrent requests would.
      const { service, race } = racingSandbox(async (account, id) => {
        const read = await account.payment(id);
        if (read === undefined) return;
        const refunded = read.payment.amount_refunded + 300;
        if (refunded > read.payment.amount_captured) return;
        const next = { ...read.payment, amount_refunded: refunded };
        const step = { at: 0, change: 'refunded' as const, status: next.status, amount: 300 };
        await account.transitionPayment(id, read.json, next, step);
      }, seam);
      const id = await authorized(service);
      await service.payments.capture(id, undefined);
      race.refusals = 3;
      const { result: refund } = await service.payments.refund(id, { amount: 300 });
      expect(refund.ok === false && refund.problem).toMatchObject({
        code: 'invalid_request',
        detail: 'amount must be at most what remains to refund, 100; got 300.',
      });
    });

    it('applies the change once after TRANSITION_ATTEMPTS - 1 refusals in a row', async () => {
      const { captured, changes } = await captureRacing(TRANSITION_ATTEMPTS - 1, async () => {});
      expect(captured.ok && captured.body.status).toBe('SUCCEEDED');
      expect(changes).toEqual(['created', 'captured']);
    });

    it('gives up with 409 after TRANSITION_ATTEMPTS refusals in a row (a livelock), changing nothing', async () => {
      const { captured, stored } = await captureRacing(TRANSITION_ATTEMPTS, async () => {});
      expect(captured.ok === false && captured.problem.detail).toMatch(/kept changing/);
      expect(stored?.payment.status).toBe('AUTHORIZED');
    });
  });
}
