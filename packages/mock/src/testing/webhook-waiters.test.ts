import { webhooks } from '@payment-service/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_NEXT_TIMEOUT_MS, nextWanted } from './next-options.js';
import { createTestSandbox } from './sandbox.js';
import type { NextEventOptions, TestSandbox, WebhookHandler } from './types.js';
import type { HandledDelivery } from './webhook-router.js';
import { WebhookWaiters } from './webhook-waiters.js';

const sandboxes: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});
function sandboxFor(seed: string): TestSandbox {
  const sandbox = createTestSandbox({ seed });
  sandboxes.push(sandbox);
  return sandbox;
}

const payWith = (token: string) =>
  ({ amount: 1000, currency: 'KZT', payment_method: { type: 'token', token } }) as const;

/** A handler that verifies each delivery and answers the next status of `answers` (then 204). */
async function handlerOn(sandbox: TestSandbox, answers: number[] = []) {
  const calls: string[] = [];
  let secret = '';
  const handler: WebhookHandler = async (request) => {
    const event = await webhooks.verify(await request.text(), request.headers, secret);
    const status = answers.shift() ?? 204;
    calls.push(`${event.type} ${status}`);
    return new Response(null, { status });
  };
  ({ secret } = await sandbox.webhooks.deliverTo(handler, { url: 'http://shop.test/webhooks' }));
  return calls;
}

/** The rejections node reports as unhandled while `run` runs (and a few turns of the loop after). */
async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const listen = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', listen);
  try {
    await run();
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', listen);
  }
  return unhandled;
}

/** The message a promise rejects with (vitest's `rejects` awaits it too: both observe it). */
async function rejectionOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

describe('sandbox.webhooks.next(), made before the action', () => {
  it('resolves with the event once the request it waits for is delivered', async () => {
    const sandbox = sandboxFor('waiter-before-create');
    const calls = await handlerOn(sandbox);
    const handled = sandbox.webhooks.next({ type: 'payment.succeeded' });
    const payment = await sandbox.client.payments.create(payWith('tok_test_success'));
    const event = await handled;
    expect(event.data.object).toMatchObject({ id: payment.id, status: 'SUCCEEDED' });
    expect(calls).toEqual(['payment.succeeded 204']);
  });

  it('resolves once clock.advance() makes the settlement that sends it, with no unhandled rejection', async () => {
    const sandbox = sandboxFor('waiter-before-advance');
    await handlerOn(sandbox);
    const payment = await sandbox.client.payments.create(payWith('tok_test_pending'));
    let handled: Promise<unknown> | undefined;
    const unhandled = await unhandledDuring(async () => {
      handled = sandbox.webhooks.next({ type: 'payment.succeeded', paymentId: payment.id });
      // The waiter of the old next() rejected here, before the test awaited it.
      await sandbox.webhooks.settled();
      await sandbox.clock.advance({ seconds: 5 });
    });
    expect(unhandled).toEqual([]);
    expect(await handled).toMatchObject({
      type: 'payment.succeeded',
      created_at: '2026-01-01T00:00:05Z',
    });
  });

  it('waits while awaited alongside the work that delivers it, even with timeout 0', async () => {
    const sandbox = sandboxFor('waiter-alongside');
    await handlerOn(sandbox);
    const payment = await sandbox.client.payments.create(payWith('tok_test_pending'));
    const [event] = await Promise.all([
      sandbox.webhooks.next({ type: 'payment.succeeded', timeout: 0 }),
      sandbox.clock.advance({ seconds: 5 }),
    ]);
    expect(event.data.object.id).toBe(payment.id);
  });

  it('waits in real time for a request that comes over HTTP after it was awaited', async () => {
    const sandbox = sandboxFor('waiter-http');
    await handlerOn(sandbox);
    const server = await sandbox.listen();
    // A real-time bound far beyond the request's time: a loaded machine must not make it flaky.
    const handled = sandbox.webhooks.next({ type: 'payment.succeeded', timeout: 30_000 });
    const create = async () => {
      // A turn of the loop later: the waiter is awaited with the sandbox idle first.
      await new Promise((resolve) => setImmediate(resolve));
      const response = await fetch(`${server.url}/v1/payments`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${sandbox.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': 'waiter-http',
        },
        body: JSON.stringify(payWith('tok_test_success')),
      });
      return (await response.json()) as { id: string };
    };
    const [event, created] = await Promise.all([handled, create()]);
    expect(event.data.object.id).toBe(created.id);
  });

  it('gives deliveries to waiters in the order they were made, each delivery once', async () => {
    const sandbox = sandboxFor('waiter-order');
    await handlerOn(sandbox);
    const first = sandbox.webhooks.next();
    const second = sandbox.webhooks.next();
    const payment = await sandbox.client.payments.create(payWith('tok_test_pending'));
    await sandbox.clock.advance({ seconds: 5 });
    expect([(await first).type, (await second).type]).toEqual([
      'payment.pending',
      'payment.succeeded',
    ]);
    expect((await first).data.object.id).toBe(payment.id);
    await expect(sandbox.webhooks.next({ timeout: 0 })).rejects.toThrow(
      /no such event was delivered and accepted \(2xx\) by a handler; delivered so far: payment\.pending pay_\w+ at 2026-01-01T00:00:00\.000Z \(answered 204, taken\); payment\.succeeded pay_\w+ at 2026-01-01T00:00:05\.000Z \(answered 204, taken\); nothing is due on the sandbox clock\.$/,
    );
  });
});

describe("sandbox.webhooks.next() and the handler's answer", () => {
  it('waits past a 500 for the retry the handler accepts, and yields the event once', async () => {
    const sandbox = sandboxFor('waiter-500-then-204');
    const calls = await handlerOn(sandbox, [500]);
    const handled = sandbox.webhooks.next({ type: 'payment.succeeded' });
    let resolved = false;
    void handled.then(() => {
      resolved = true;
    });
    await sandbox.trigger('payment.succeeded');
    expect(calls).toEqual(['payment.succeeded 500']);
    expect(resolved).toBe(false);
    await sandbox.clock.advance({ seconds: 10 }); // the retry, 5 s ± 20 % after the 500
    expect(calls).toEqual(['payment.succeeded 500', 'payment.succeeded 204']);
    const event = await handled;
    expect(resolved).toBe(true);
    // The 204 was the only accepted delivery: the same event does not come a second time.
    await expect(sandbox.webhooks.next({ type: 'payment.succeeded', timeout: 0 })).rejects.toThrow(
      'payment.succeeded pay_',
    );
    // answer: 'any' takes the attempt answered 500, which no accepted waiter took.
    const failed = await sandbox.webhooks.next({
      type: 'payment.succeeded',
      answer: 'any',
      timeout: 0,
    });
    expect(failed.id).toBe(event.id);
    await expect(
      sandbox.webhooks.next({ answer: 'any', type: 'payment.succeeded', timeout: 0 }),
    ).rejects.toThrow(
      /\(answered 500, taken\); payment\.succeeded pay_\w+ at \S+ \(answered 204, taken\)/,
    );
  });

  it("with answer: 'any', resolves on the attempt the handler answered 500", async () => {
    const sandbox = sandboxFor('waiter-any');
    const calls = await handlerOn(sandbox, [500]);
    const attempt = sandbox.webhooks.next({ type: 'payment.succeeded', answer: 'any' });
    await sandbox.client.payments.create(payWith('tok_test_success'));
    expect((await attempt).type).toBe('payment.succeeded');
    expect(calls).toEqual(['payment.succeeded 500']);
  });

  it('counts a handler that throws as an attempt, not as accepted', async () => {
    const sandbox = sandboxFor('waiter-throws');
    await sandbox.webhooks.deliverTo(() => {
      throw new Error('database down');
    });
    await sandbox.trigger('payment.failed');
    const message = await rejectionOf(sandbox.webhooks.next({ timeout: 0 }));
    expect(message).toContain(
      "(answered Error: database down: not accepted; { answer: 'any' } takes it)",
    );
    expect(message).toMatch(
      /attempt 2 of payment\.failed pay_\w+ to we_\w+ at 2026-01-01T00:00:0\d\.\d{3}Z/,
    );
    expect((await sandbox.webhooks.next({ answer: 'any', timeout: 0 })).type).toBe(
      'payment.failed',
    );
  });
});

describe('sandbox.webhooks.next() giving up', () => {
  it('says what was delivered and what is due on the sandbox clock when the sandbox stays idle', async () => {
    const sandbox = sandboxFor('waiter-idle');
    await handlerOn(sandbox);
    const payment = await sandbox.client.payments.create(payWith('tok_test_pending'));
    const message = await rejectionOf(
      sandbox.webhooks.next({ type: 'payment.succeeded', paymentId: payment.id, timeout: 0 }),
    );
    expect(message).toBe(
      `sandbox.webhooks.next({ type: "payment.succeeded", paymentId: "${payment.id}", timeout: 0 }) gave up after 0 ms of real time with the sandbox idle (awaited; no request, no clock move, nothing in flight or due now): no such event was delivered and accepted (2xx) by a handler; delivered so far: payment.pending ${payment.id} at 2026-01-01T00:00:00.000Z (answered 204); due on the sandbox clock (now 2026-01-01T00:00:00.000Z): ${payment.id} settles at 2026-01-01T00:00:05.000Z: advance the clock (sandbox.clock.advance) to run them, real time does not move it.`,
    );
  });

  it('says whether a handler is registered at all', async () => {
    const none = sandboxFor('waiter-no-handler');
    expect(await rejectionOf(none.webhooks.next({ timeout: 0 }))).toContain(
      'no handler is registered (register one with sandbox.webhooks.deliverTo)',
    );
    const quiet = sandboxFor('waiter-quiet-handler');
    await handlerOn(quiet);
    expect(await rejectionOf(quiet.webhooks.next({ timeout: 0 }))).toContain(
      'no delivery reached a handler yet; nothing is due on the sandbox clock.',
    );
  });

  it('gives up once the sandbox clock passes its within, and rejects only when awaited', async () => {
    const sandbox = sandboxFor('waiter-within');
    await handlerOn(sandbox, [500]);
    await sandbox.client.payments.create(payWith('tok_test_pending'));
    const late = sandbox.webhooks.next({ type: 'payment.succeeded', within: { seconds: 4 } });
    const inTime = sandbox.webhooks.next({ type: 'payment.pending', within: { seconds: 30 } });
    let lateMessage = '';
    const unhandled = await unhandledDuring(async () => {
      // The pending event's retry (5 s ± 20 %) is accepted; the settlement at 5 s is past 4 s.
      await sandbox.clock.advance({ minutes: 1 });
    });
    expect(unhandled).toEqual([]);
    lateMessage = await rejectionOf(late);
    expect(lateMessage).toMatch(
      /^sandbox\.webhooks\.next\(\{ type: "payment\.succeeded", within: \{"seconds":4\} \}\) gave up at 2026-01-01T00:00:0\d\.\d{3}Z on the sandbox clock, past its within \(2026-01-01T00:00:04\.000Z\): no such event was delivered and accepted/,
    );
    expect((await inTime).type).toBe('payment.pending');
    // The settlement's delivery stays for the next waiter.
    expect((await sandbox.webhooks.next({ type: 'payment.succeeded', timeout: 0 })).type).toBe(
      'payment.succeeded',
    );
  });

  it('counts a delivery made exactly at its within', async () => {
    const sandbox = sandboxFor('waiter-within-edge');
    await handlerOn(sandbox);
    await sandbox.client.payments.create(payWith('tok_test_pending'));
    const onTime = sandbox.webhooks.next({ type: 'payment.succeeded', within: { seconds: 5 } });
    await sandbox.clock.advance({ seconds: 6 });
    expect((await onTime).created_at).toBe('2026-01-01T00:00:05Z');
  });

  it('rejects a waiter left when the sandbox closes, and next() on a closed sandbox, only when awaited', async () => {
    const sandbox = sandboxFor('waiter-closed');
    await handlerOn(sandbox);
    let left: Promise<unknown> | undefined;
    let after: Promise<unknown> | undefined;
    const unhandled = await unhandledDuring(async () => {
      left = sandbox.webhooks.next({ type: 'payment.refunded' });
      await sandbox.close();
      after = sandbox.webhooks.next();
    });
    expect(unhandled).toEqual([]);
    expect(await rejectionOf(left as Promise<unknown>)).toBe(
      'sandbox.webhooks.next({ type: "payment.refunded" }) gave up as the sandbox closed: no such event was delivered and accepted (2xx) by a handler; no delivery reached a handler yet; nothing is due on the sandbox clock.',
    );
    expect(await rejectionOf(after as Promise<unknown>)).toBe(
      'sandbox.webhooks.next(): the sandbox is closed',
    );
  });

  it('lists the latest ten deliveries and the earliest ten due items, and counts the rest', async () => {
    const sandbox = sandboxFor('waiter-long-lists');
    await handlerOn(sandbox);
    for (let index = 0; index < 12; index++) {
      await sandbox.client.payments.create(payWith('tok_test_pending'));
    }
    const message = await rejectionOf(
      sandbox.webhooks.next({ type: 'payment.refunded', timeout: 0 }),
    );
    expect(message).toContain('delivered so far (and 2 earlier): ');
    expect(message.match(/answered 204/g)).toHaveLength(10);
    expect(message.match(/ settles at /g)).toHaveLength(10);
    expect(message).toContain('; and 2 more: advance the clock');
  });
});

describe('sandbox.webhooks.next() options', () => {
  const refused: [unknown, string][] = [
    [
      'payment.succeeded',
      'sandbox.webhooks.next(options) takes an object { type?, paymentId?, answer?, within?, timeout? }; got "payment.succeeded"',
    ],
    [
      { typ: 'payment.succeeded' },
      'sandbox.webhooks.next() has no option "typ": use type, paymentId, answer, within, timeout',
    ],
    [
      { type: 'payment.succeded' },
      'sandbox.webhooks.next({ type }) takes an event type, one of payment.pending, payment.authorized, payment.succeeded, payment.failed, payment.canceled, payment.refunded; got "payment.succeded"',
    ],
    [{ paymentId: '' }, 'sandbox.webhooks.next({ paymentId }) takes a payment id (pay_…); got ""'],
    [{ paymentId: 42 }, 'sandbox.webhooks.next({ paymentId }) takes a payment id (pay_…); got 42'],
    [
      { answer: '2xx' },
      "sandbox.webhooks.next({ answer }) takes 'accepted' (a 2xx from your handler, the default) or 'any' (any attempt, a 500 included); got \"2xx\"",
    ],
    [
      { timeout: -1 },
      'sandbox.webhooks.next({ timeout }) takes real milliseconds from 0 to 2147483647; got -1',
    ],
    [{ timeout: Number.POSITIVE_INFINITY }, 'got Infinity'],
    [{ timeout: '5s' }, 'got "5s"'],
    [{ within: { secs: 5 } }, 'sandbox.webhooks.next({ within }) does not know the unit "secs"'],
    [{ within: -5 }, 'sandbox.webhooks.next({ within }) takes milliseconds ≥ 0; got -5'],
  ];

  it.each(refused)(
    'refuses %j, naming the option, when awaited and never unobserved',
    async (options, message) => {
      const sandbox = sandboxFor('waiter-options');
      let waiter: Promise<unknown> | undefined;
      const unhandled = await unhandledDuring(async () => {
        waiter = sandbox.webhooks.next(options as NextEventOptions);
      });
      expect(unhandled).toEqual([]);
      expect(await rejectionOf(waiter as Promise<unknown>)).toContain(message);
    },
  );

  it('defaults to accepted deliveries and 2 s of idle real time, with no bound on the sandbox clock', () => {
    expect(nextWanted(undefined)).toEqual({
      type: undefined,
      paymentId: undefined,
      acceptedOnly: true,
      withinMs: undefined,
      timeoutMs: DEFAULT_NEXT_TIMEOUT_MS,
      call: 'sandbox.webhooks.next()',
    });
    expect(DEFAULT_NEXT_TIMEOUT_MS).toBe(2_000);
    expect(
      nextWanted({ answer: 'any', within: { minutes: 1, seconds: 30 }, timeout: 50 }),
    ).toMatchObject({
      acceptedOnly: false,
      withinMs: 90_000,
      timeoutMs: 50,
    });
  });
});

describe('WebhookWaiters (on a scheduler the test runs)', () => {
  /** Waiters over a list of deliveries, with timers the test fires by hand. */
  function scheduled() {
    const timers: { ms: number; run: () => void; cancelled: boolean }[] = [];
    const deliveries: HandledDelivery[] = [];
    const waiters = new WebhookWaiters({
      deliveries: () => deliveries,
      now: () => 0,
      settled: async () => {},
      explain: async (wanted, why) => `${wanted.call} gave up: ${why.reason}`,
      schedule: (run, ms) => {
        const timer = {
          ms,
          run: () => {
            timer.cancelled = true;
            run();
          },
          cancelled: false,
        };
        timers.push(timer);
        return () => {
          timer.cancelled = true;
        };
      },
    });
    const live = () => timers.filter((timer) => !timer.cancelled);
    return { waiters, deliveries, live };
  }
  const delivery = (accepted: boolean): HandledDelivery => ({
    event: { id: 'evt_1', type: 'payment.succeeded', data: { object: { id: 'pay_1' } } } as never,
    answer: accepted ? 204 : 500,
    accepted,
    at: 0,
    taken: false,
  });

  it('starts no timer before the waiter is awaited, then one of the default 2 000 ms', async () => {
    const { waiters, live } = scheduled();
    const waiter = waiters.next({});
    expect(live()).toEqual([]);
    const outcome = waiter.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    expect(live().map((timer) => timer.ms)).toEqual([2_000]);
    live()[0]?.run();
    expect(await outcome).toBe('sandbox.webhooks.next() gave up: idle');
  });

  it('counts idle time again from each piece of work, and does not give up while work is under way', async () => {
    const { waiters, live } = scheduled();
    const waiter = waiters.next({ timeout: 100 });
    let settled = false;
    void waiter.then(
      () => {},
      () => {
        settled = true;
      },
    );
    const first = live()[0];
    let finish!: () => void;
    const work = waiters.during(() => new Promise<void>((resolve) => (finish = resolve)));
    expect(first?.cancelled).toBe(true);
    // The timer fires while the work is under way: no give-up, its end counts again.
    live()[0]?.run();
    await Promise.resolve();
    expect(settled).toBe(false);
    finish();
    await work;
    expect(live()).toHaveLength(1);
    waiters.activity(); // an attempt started
    expect(live()).toHaveLength(1);
    live()[0]?.run();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(true);
  });

  it('leaves a delivery refused (500) for a waiter of any answer, and resolves the accepted one', async () => {
    const { waiters, deliveries, live } = scheduled();
    const accepted = waiters.next({});
    const any = waiters.next({ answer: 'any' });
    const refusedAttempt = delivery(false);
    deliveries.push(refusedAttempt);
    waiters.delivered(refusedAttempt);
    const acceptedAttempt = delivery(true);
    deliveries.push(acceptedAttempt);
    waiters.delivered(acceptedAttempt);
    expect(await accepted).toBe(acceptedAttempt.event);
    expect(await any).toBe(refusedAttempt.event);
    expect(deliveries.map((entry) => entry.taken)).toEqual([true, true]);
    expect(live()).toEqual([]);
  });
});
