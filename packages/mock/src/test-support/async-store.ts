// Test support: the store seam of a memory store made asynchronous, as a networked store answers: every @async call runs and answers on a later tick.
import type { RuntimeHooks } from '../app/runtime.js';
import type { Account } from '../store/memory/account.js';
import type { MemoryStore } from '../store/memory/memory-store.js';
import type { AccountWebhooks } from '../store/memory/webhook-state.js';
import { NO_CLAIM, ReadSession } from '../store/read-session.js';
import type { RecordedEntry } from '../store/request-records.js';
import type {
  AccountStore,
  HeldWrites,
  OpenClaim,
  SandboxStore,
  SessionAsk,
  StoreSession,
  WebhookStore,
} from '../store/store.js';

/** Runs a store operation on a later tick of the event loop and answers with its result. */
function later<T>(operation: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    setImmediate(() => {
      try {
        resolve(operation());
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** The `@async` calls of `AccountStore` (store/store.ts): each answers with a promise here. */
const ACCOUNT_CALLS = [
  'setOffset',
  'advanceOffset',
  'setFaults',
  'consumeFailure',
  'consumeDrop',
  'payment',
  'listPayments',
  'storedPayments',
  'createPayment',
  'transitionPayment',
  'takeDueSettlements',
  'nextSettlementAt',
  'idempotencyRecord',
  'claimIdempotencyKey',
  'completeIdempotencyRecord',
  'forgetIdempotencyRecord',
  'expireIdempotencyRecords',
  'listIdempotencyRecords',
  'recentRequests',
] as const satisfies readonly (keyof AccountStore)[];

/** The `@async` calls of `WebhookStore`: every call but `endpointCount`. */
const WEBHOOK_CALLS = [
  'endpointById',
  'listEndpoints',
  'saveEndpoint',
  'deleteEndpoint',
  'disableEndpoint',
  'eventById',
  'listEvents',
  'rememberEvent',
  'deliveryLog',
  'record',
  'enqueue',
  'nextAttemptAt',
  'claimDueAttempt',
  'finishAttempt',
  'queuedAttempts',
] as const satisfies readonly (keyof WebhookStore)[];

/** Binds `calls` of `target` to run on a later tick, each answering with a promise. */
function deferred<T extends object>(target: T, calls: readonly (keyof T)[]): Partial<T> {
  const wrapped: Record<PropertyKey, unknown> = {};
  for (const call of calls) {
    const method = target[call] as (...args: unknown[]) => unknown;
    wrapped[call] = (...args: unknown[]) => later(() => method.apply(target, args));
  }
  return wrapped as Partial<T>;
}

/**
 * Wraps a (memory) store so that every `@async` call of the seam (store/store.ts) runs on a
 * later tick and answers with a promise, as a networked store would: the service, the pipeline
 * and the dispatcher then run their asynchronous path, with other requests and resets free to
 * run at every await. Handles keep their identity (one wrapper per account and per webhook
 * state), and properties (`closed`, `faults`, `offsetSeconds`, `webhooks`) read through.
 *
 * @example
 * const runtime = createRuntime({ clock }, { seam: asyncStore });
 * await runtime.state.store.find('sk_test_12345678'); // a promise, answered on a later tick
 */
export function asyncStore(store: MemoryStore): SandboxStore {
  const accounts = new WeakMap<Account, AccountStore>();
  const webhookStates = new WeakMap<AccountWebhooks, WebhookStore>();
  const unwrapped = new WeakMap<AccountStore, Account>();

  const wrapWebhooks = (state: AccountWebhooks): WebhookStore => {
    let wrapped = webhookStates.get(state);
    if (wrapped === undefined) {
      wrapped = {
        ...deferred(state, WEBHOOK_CALLS),
        endpointCount: () => state.endpointCount(),
      } as unknown as WebhookStore;
      webhookStates.set(state, wrapped);
    }
    return wrapped;
  };

  const wrapAccount = (account: Account): AccountStore => {
    let wrapped = accounts.get(account);
    if (wrapped === undefined) {
      const calls = deferred(account, ACCOUNT_CALLS);
      wrapped = Object.create(calls, {
        closed: { get: () => account.closed },
        offsetSeconds: { get: () => account.offsetSeconds },
        faults: { get: () => account.faults },
        webhooks: {
          get: () => (account.webhooks === undefined ? undefined : wrapWebhooks(account.webhooks)),
        },
        now: { value: (serverNow: number) => account.now(serverNow) },
        // Held back to a later tick, as a networked store holds it back, and handed over.
        recordRequest: {
          value: (entry: RecordedEntry, held: HeldWrites) =>
            held.add(later(() => account.recordRequest(entry))),
        },
        webhookState: { value: () => wrapWebhooks(account.webhookState()) },
      }) as AccountStore;
      accounts.set(account, wrapped);
      unwrapped.set(wrapped, account);
    }
    return wrapped;
  };

  const wrapFound = (account: Account | undefined) =>
    account === undefined ? undefined : wrapAccount(account);

  const admit = () => later(() => store.admit());

  /** A session read call by call, each on a later tick (no store of this kind reads in one go). */
  const session = async (apiKey: string, ask: SessionAsk): Promise<StoreSession> => {
    const account = ask.write
      ? await later(() => wrapAccount(store.open(apiKey)))
      : await later(() => wrapFound(store.find(apiKey)));
    let claim: OpenClaim = NO_CLAIM;
    if (
      account !== undefined &&
      ask.claim !== undefined &&
      Object.keys(account.faults).length === 0
    ) {
      const accountNow = account.now(ask.serverNow);
      const record = ask.claim(accountNow);
      const held = await account.claimIdempotencyKey(record, accountNow);
      claim = held === undefined ? { kind: 'claimed', record } : { kind: 'held', record: held };
    }
    const { paymentId } = ask;
    const payment =
      paymentId === undefined || account === undefined
        ? undefined
        : await account.payment(paymentId);
    const settlesNext = account === undefined ? undefined : await account.nextSettlementAt();
    return new ReadSession({ account, claim, paymentId, payment, settlesNext, admit });
  };

  return {
    find: (apiKey) => later(() => wrapFound(store.find(apiKey))),
    open: (apiKey) => later(() => wrapAccount(store.open(apiKey))),
    admit,
    session,
    withSession: (apiKey, ask, work) => session(apiKey, ask).then(work),
    reset: (apiKey) => later(() => store.reset(apiKey)),
    release: (account) =>
      later(() => {
        const held = unwrapped.get(account);
        return held !== undefined && store.release(held);
      }),
    sweep: (serverNow) => store.sweep(serverNow),
  };
}

/**
 * The stores the service-level tests run on: the memory store as it is, and the same made
 * asynchronous (`asyncStore`), so that the asynchronous path is run, not only typed.
 *
 * @example
 * for (const { name, hooks } of STORES) describe(name, () => { … createHarness({}, hooks) … });
 */
export const STORES: readonly { name: string; hooks: RuntimeHooks }[] = [
  { name: 'on the memory store', hooks: {} },
  { name: 'on an asynchronous store', hooks: { seam: asyncStore } },
];

/**
 * Lets the store calls of requests under way answer: the asynchronous store's answer on later
 * ticks, which a test faking `setTimeout` does not run by advancing its clock.
 *
 * @example
 * const pending = call('GET', '/v1/payments');
 * await storeTicks();
 * await vi.advanceTimersByTimeAsync(60);
 */
export async function storeTicks(count = 50): Promise<void> {
  for (let tick = 0; tick < count; tick++) await new Promise((resolve) => setImmediate(resolve));
}
