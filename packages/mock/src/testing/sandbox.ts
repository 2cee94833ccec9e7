// createTestSandbox: one fresh sandbox key in process, on a manual clock, with webhooks into the merchant's handlers.
import { createClient } from '@payment-service/sdk';
import { mockServerOf } from '../app/mock-server.js';
import { createRuntime } from '../app/runtime.js';
import { createSandboxControls } from '../controls.js';
import {
  addPayments,
  noWebhooks,
  readAccountData,
  replaceAccountData,
} from '../service/account-data.js';
import { AccountService } from '../service/account-service.js';
import { newTestApiKey, seededRandom, systemRandom } from '../shared/ids.js';
import type { EndpointRecord } from '../store/webhook-records.js';
import { advanceClock, durationMs, manualClock } from './clock.js';
import { chaosDeliveryPlan } from './delivery-plan.js';
import { paymentsFromFixtures } from './fixtures.js';
import { heldAccountData, heldAccountNow } from './held-account.js';
import type { NextWanted } from './next-options.js';
import { fromSnapshot, toSnapshot } from './snapshot.js';
import { runTrigger } from './triggers.js';
import type {
  ListeningSandbox,
  Payment,
  TestSandbox,
  TestSandboxOptions,
  WebhookHandler,
} from './types.js';
import { dueItems, waiterMessage } from './waiter-message.js';
import { WebhookRouter } from './webhook-router.js';
import { type GiveUp, WebhookWaiters } from './webhook-waiters.js';

/** The sandbox clock's first instant unless `start` says otherwise. */
const DEFAULT_START = Date.UTC(2026, 0, 1);
const DEFAULT_BASE_URL = 'http://sandbox.test';
const DEFAULT_WEBHOOK_URL = 'http://localhost/webhooks';

function startOf(start: TestSandboxOptions['start']): number {
  const ms = start === undefined ? DEFAULT_START : start instanceof Date ? start.getTime() : start;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw new TypeError(`start must be a Date or epoch milliseconds; got ${String(start)}`);
  }
  return ms;
}

function seedOf(seed: unknown): string {
  if (seed === undefined) return systemRandom.base62(16);
  if (
    (typeof seed === 'string' && seed !== '') ||
    (typeof seed === 'number' && Number.isFinite(seed))
  ) {
    return String(seed);
  }
  throw new TypeError(`seed must be a non-empty string or a finite number; got ${String(seed)}`);
}

/**
 * Creates a sandbox for one test: a fresh `sk_test_` key in an in-process mock (no port), an
 * SDK `client` and the `controls` on it, a manual `clock` that settlements and webhook retries
 * follow, webhooks into your own handlers (`webhooks.deliverTo`), `trigger`, `seed`,
 * `snapshot`/`restore`. The same `seed` gives the same key, ids and choices. `close()` (or
 * `await using`) leaves no timer or socket behind.
 *
 * @example
 * await using sandbox = createTestSandbox({ seed: 'checkout' });
 * const endpoint = await sandbox.webhooks.deliverTo(app.fetch, { url: 'http://shop.test/webhooks' });
 * const payment = await sandbox.client.payments.create({ amount: 1000, currency: 'KZT', payment_method: { type: 'token', token: 'tok_test_pending' } });
 * await sandbox.clock.advance(5_000);
 * const event = await sandbox.webhooks.next({ type: 'payment.succeeded', paymentId: payment.id });
 */
export function createTestSandbox(options: TestSandboxOptions = {}): TestSandbox {
  const randomSeed = seedOf(options.seed);
  const delivery = options.webhookDelivery ?? 'in-order';
  if (delivery !== 'in-order' && delivery !== 'chaos') {
    throw new TypeError(`webhookDelivery must be 'in-order' or 'chaos'; got ${String(delivery)}`);
  }
  const apiKey = newTestApiKey(seededRandom(`${randomSeed}:api-key`));
  const clock = manualClock(startOf(options.start));
  // Both read the key's clock (`now`, below) when called, never while being made.
  const router: WebhookRouter = new WebhookRouter({
    now: () => now(),
    activity: () => waiters.activity(),
    delivered: (delivery) => waiters.delivered(delivery),
  });
  const runtime = createRuntime(
    {
      clock,
      seed: randomSeed,
      webhookFetch: router.fetch,
      ...(options.settlementDelaySeconds === undefined
        ? {}
        : { settlementDelaySeconds: options.settlementDelaySeconds }),
      ...(options.extraTokens === undefined ? {} : { extraTokens: options.extraTokens }),
      ...(options.webhookTimeoutMs === undefined
        ? {}
        : { webhookTimeoutMs: options.webhookTimeoutMs }),
    },
    delivery === 'chaos'
      ? { planDeliveries: chaosDeliveryPlan(seededRandom(`${randomSeed}:chaos`)) }
      : {},
  );
  // Made without a data directory or Valkey/Redis: the memory store, read at once by
  // `snapshot()` and `clock.now()` (everything else goes through the store seam).
  const memory = runtime.memory;
  if (memory === undefined) throw new Error('unreachable: the testing entry runs in memory');
  const mock = mockServerOf(runtime);
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
  /** The sandbox's fetch, counted as work under way by the `next()` waiters. */
  const fetchMock = (input: Request | URL | string, init?: RequestInit) =>
    waiters.during(() => mock.fetch(input, init));
  const client = createClient({ apiKey, baseUrl, fetch: fetchMock });
  const controls = createSandboxControls({ baseUrl, apiKey, fetch: fetchMock });
  const service = () => new AccountService(runtime.state, apiKey);
  let listening: Promise<ListeningSandbox> | undefined;
  let closed = false;

  const open = (what: string) => {
    if (closed) throw new Error(`sandbox.${what}: the sandbox is closed`);
  };
  /** The earliest settlement or attempt of the key still to come, in server time. */
  const nextDueAt = async (): Promise<number | undefined> => {
    const account = await runtime.state.store.find(apiKey);
    if (account === undefined) return undefined;
    const times = [await account.webhooks?.nextAttemptAt(), await account.nextSettlementAt()];
    const due = times.filter((time): time is number => time !== undefined);
    return due.length === 0 ? undefined : Math.min(...due) - account.offsetSeconds * 1000;
  };
  /** The key's clock now (ms epoch): read at once from the memory store. */
  const now = (): number => heldAccountNow(memory, apiKey, runtime.state.clock.now());
  /**
   * Waits until no attempt is in flight or due now. The dispatcher's timers are unref'd (a
   * server must not be kept alive by them); a test waiting on them must keep node alive itself.
   */
  const settled = async () => {
    const keepAlive = setInterval(() => {}, 60_000);
    try {
      await runtime.webhooksSettled();
    } finally {
      clearInterval(keepAlive);
    }
  };
  /** Settles what is due, sends what is due, and waits for the handlers' answers. */
  const runDue = async () => {
    await runtime.deliver((await service().payments.settleDue()).events);
    await runtime.wake(apiKey);
    await settled();
    waiters.clockMoved();
  };
  const waiters: WebhookWaiters = new WebhookWaiters({
    deliveries: () => router.handled,
    now,
    settled,
    explain: async (wanted: NextWanted, why: GiveUp) =>
      waiterMessage({
        wanted,
        why,
        routes: router.size,
        delivered: router.handled,
        due: closed ? [] : dueItems(await readAccountData(runtime.state, apiKey)),
        now: now(),
      }),
  });
  /** Work that may lead to deliveries: `next()` waiters do not count its time as idle. */
  const busy = <T>(work: () => Promise<T>): Promise<T> => waiters.during(work);
  /** The endpoints `deliverTo` registered that the key still has, to keep across a reset. */
  const wiring = async (): Promise<EndpointRecord[]> => {
    const account = await runtime.state.store.find(apiKey);
    const endpoints = (await account?.webhooks?.listEndpoints()) ?? [];
    return endpoints.filter((record) => router.routes(record.key));
  };

  /** Sends the deliveries of an endpoint the key already has (a restored one) to `handler`. */
  const attach = async (handler: WebhookHandler, id: unknown) => {
    const account = await runtime.state.store.find(apiKey);
    const record = await account?.webhooks?.endpointById(String(id));
    if (record === undefined) {
      throw new TypeError(
        `webhooks.deliverTo(handler, { endpoint }): the sandbox has no endpoint ${JSON.stringify(id)}; restore the snapshot that holds it first`,
      );
    }
    const secret = `whsec_${Buffer.from(record.key).toString('base64')}`;
    router.add(record.endpoint.url, secret, handler);
    return { id: record.endpoint.id, url: record.endpoint.url, secret };
  };

  const sandbox: TestSandbox = {
    randomSeed,
    apiKey,
    baseUrl,
    client,
    controls,
    fetch: (input, init) => {
      open('fetch()');
      return fetchMock(input, init);
    },
    app: mock.app,
    clock: {
      now: () => new Date(now()),
      async advance(by) {
        open('clock.advance()');
        const target = clock.now() + durationMs(by);
        await busy(() => advanceClock(clock, target, nextDueAt, runDue));
      },
      async set(date) {
        open('clock.set()');
        const target = date instanceof Date ? date.getTime() : date;
        const current = await service().clock.now();
        if (typeof target !== 'number' || Number.isNaN(target) || target < current) {
          const from = new Date(current).toISOString();
          throw new RangeError(
            `clock.set(date) only moves forward, from ${from}; got ${String(date)}`,
          );
        }
        await busy(() => advanceClock(clock, clock.now() + (target - current), nextDueAt, runDue));
      },
    },
    webhooks: {
      async deliverTo(handler, deliverOptions = {}) {
        open('webhooks.deliverTo()');
        if (typeof handler !== 'function') {
          throw new TypeError(
            'webhooks.deliverTo(handler): handler must be a function (Request) => Response, such as app.fetch',
          );
        }
        if (deliverOptions.endpoint !== undefined) return attach(handler, deliverOptions.endpoint);
        const url = deliverOptions.url ?? DEFAULT_WEBHOOK_URL;
        const endpoint = await client.webhookEndpoints.create({
          url,
          ...(deliverOptions.events === undefined ? {} : { events: deliverOptions.events }),
        });
        router.add(endpoint.url, endpoint.secret, handler);
        return { id: endpoint.id, url: endpoint.url, secret: endpoint.secret };
      },
      next(nextOptions) {
        if (closed) return waiters.refused('sandbox.webhooks.next(): the sandbox is closed');
        return waiters.next(nextOptions);
      },
      async deliveries() {
        open('webhooks.deliveries()');
        return (await controls.listWebhookDeliveries()).data.reverse();
      },
      async replay(eventId) {
        open('webhooks.replay()');
        await busy(async () => {
          await controls.redeliverEvent(eventId);
          await runDue();
        });
      },
      settled,
    },
    listen() {
      open('listen()');
      listening ??= serve((request) => waiters.during(async () => mock.app.fetch(request)));
      return listening;
    },
    async trigger(type, params) {
      open('trigger()');
      return busy(async () => {
        const payment = await runTrigger(client, type, params);
        await runDue();
        return payment;
      });
    },
    async seed(fixtures) {
      open('seed()');
      const account = await runtime.state.store.find(apiKey);
      const held = account === undefined ? [] : await account.storedPayments();
      const payments = paymentsFromFixtures(fixtures?.payments ?? [], {
        validators: runtime.validators,
        tokens: runtime.tokens,
        random: runtime.state.random,
        now: await service().clock.now(),
        settlementDelayMs: runtime.state.settlementDelayMs,
        existingIds: new Set([...held].map((stored) => stored.id)),
      });
      await busy(async () => {
        await addPayments(runtime.state, apiKey, payments);
        await runDue();
      });
      const seeded: Payment[] = [];
      for (const { payment } of payments) {
        const found = await service().payments.retrieve(payment.id);
        if (found.ok) seeded.push(found.body);
      }
      return seeded;
    },
    snapshot() {
      open('snapshot()');
      const data = heldAccountData(memory, apiKey, runtime.state.defaultEndpoint);
      return toSnapshot(data, clock.now());
    },
    async restore(snapshot) {
      open('restore()');
      const read = fromSnapshot(snapshot, {
        validators: runtime.validators,
        sandboxValidators: runtime.sandboxValidators,
        tokens: runtime.tokens,
        webhookPolicy: runtime.state.webhookPolicy,
        maxPaymentsPerKey: runtime.options.maxPaymentsPerKey,
        defaultEndpointId: runtime.state.defaultEndpoint?.endpoint.id,
      });
      await settled();
      if (read.keepsEndpoints) read.data.webhooks.endpoints = await wiring();
      router.clear();
      await busy(async () => {
        clock.set(read.clock);
        await replaceAccountData(runtime.state, apiKey, read.data);
        await runDue();
      });
    },
    async reset() {
      open('reset()');
      await settled();
      const webhooks = noWebhooks();
      webhooks.endpoints = await wiring();
      router.clear();
      await replaceAccountData(runtime.state, apiKey, {
        offsetSeconds: 0,
        faults: {},
        payments: [],
        idempotencyRecords: [],
        webhooks,
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      waiters.close();
      mock.close();
      const server = await listening?.catch(() => undefined);
      await server?.close();
    },
    [Symbol.asyncDispose]() {
      return sandbox.close();
    },
  };
  return sandbox;
}

/** Serves a fetch handler on 127.0.0.1 and a free port (loaded on first use). */
async function serve(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<ListeningSandbox> {
  const { serve: listen } = await import('@hono/node-server');
  return new Promise((resolve, reject) => {
    const server = listen({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            const http = server as unknown as { closeAllConnections?: () => void };
            http.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
    server.once('error', reject);
  });
}
