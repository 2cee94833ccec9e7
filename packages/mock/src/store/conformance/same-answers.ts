// Conformance: the same requests answered byte for byte as the memory store answers them (ids and secrets seeded, time injected).
import { describe, expect, it } from 'vitest';
import { MIN_KEY_MEMORY_BUDGET_BYTES } from '../../app/options.js';
import { type Answer, call, createBody, line, newKey, type Send } from './client.js';
import { type SuiteCommon, withSandbox } from './common.js';
import { openSandbox, type Sandbox, type SandboxOptions } from './sandbox.js';

/** What a scenario does to one sandbox; it returns the answers as lines. */
export type Scenario = (run: Runner) => Promise<void>;

/** One scenario's requests, all of one key, each answer kept as a line. */
export interface Runner {
  sandbox: Sandbox;
  send(method: string, path: string, send?: Send): Promise<Answer>;
  /** Sends a request without noting its answer (the caller notes what it keeps of it). */
  quietly(method: string, path: string): Promise<Answer>;
  /** Moves the server's clock. */
  wait(ms: number): void;
  /** Notes something the receiver or the store shows that is not an answer. */
  note(text: string): void;
}

/** Answer fields measured in real time, the same on no two runs of one store. */
const REAL_TIME = /"latency_ms":\d+/g;

/**
 * Runs a scenario as `key`: its answers as lines, the key and per-request ids masked.
 *
 * @example
 * const lines = await transcript(sandbox, key, SCENARIOS[0][2]);
 */
export async function transcript(
  sandbox: Sandbox,
  key: string,
  scenario: Scenario,
): Promise<string[]> {
  const lines: string[] = [];
  const runner: Runner = {
    sandbox,
    async send(method, path, send = {}) {
      let answer: Answer;
      try {
        answer = await call(sandbox, key, method, path, send);
      } catch (error) {
        // The drop_after_commit fault: the change is made, the connection dropped.
        if (!(error instanceof TypeError && error.message === 'fetch failed')) throw error;
        lines.push(`${method} ${path} → ${String(error)}`);
        await sandbox.settled();
        return { status: 0, headers: new Headers(), text: '', body: {} };
      }
      await sandbox.settled();
      lines.push(line(`${method} ${path}`, answer).replace(REAL_TIME, '"latency_ms":<ms>'));
      return answer;
    },
    async quietly(method, path) {
      const answer = await call(sandbox, key, method, path);
      await sandbox.settled();
      return answer;
    },
    wait(ms) {
      sandbox.clock.advance(ms);
      lines.push(`(server clock +${ms} ms)`);
    },
    note(text) {
      lines.push(text);
    },
  };
  await scenario(runner);
  return lines.map((text) => text.replaceAll(key, '<key>'));
}

const PENDING = { payment_method: { type: 'token', token: 'tok_test_pending' } };

/** Every step a client can take, with webhooks failing and retried, settlements and a reset. */
const lifecycle: Scenario = async ({ sandbox, send, note }) => {
  const receiver = (status: number) => {
    sandbox.receiverStatus = status;
    note(
      `(receiver answers ${status}; received so far: ${sandbox.received.map((a) => `${a.type} ${a.eventId}`).join(', ')})`,
    );
  };
  await send('POST', '/v1/webhook_endpoints', { body: { url: 'https://receiver.example/a' } });
  receiver(500);
  const created = await send('POST', '/v1/payments', { body: createBody(), idempotencyKey: 'one' });
  await send('POST', '/v1/payments', { body: createBody(), idempotencyKey: 'one' });
  await send('POST', '/v1/payments', { body: createBody({ amount: 9 }), idempotencyKey: 'one' });
  const authorized = await send('POST', '/v1/payments', { body: createBody({ capture: false }) });
  const id = authorized.body.id as string;
  await send('POST', `/v1/payments/${id}/capture`, {
    body: { amount: 600 },
    idempotencyKey: 'cap',
  });
  await send('POST', `/v1/payments/${id}/capture`, {
    body: { amount: 600 },
    idempotencyKey: 'cap',
  });
  await send('POST', `/v1/payments/${id}/cancel`, { body: {} });
  await send('POST', `/v1/payments/${id}/refunds`, { body: { amount: 100 } });
  await send('POST', `/v1/payments/${id}/refunds`, { body: { amount: 100_000 } });
  await send('POST', '/v1/payments', { body: createBody({ ...PENDING, description: 'later' }) });
  await send('POST', '/v1/payments', {
    body: createBody({ payment_method: { type: 'token', token: 'tok_test_declined' } }),
  });
  await send('GET', `/v1/payments/${created.body.id}`);
  await send('GET', '/v1/payments?limit=2');
  await send('GET', `/v1/payments?limit=2&starting_after=${id}`);
  await send('POST', '/_sandbox/clock/advance', { body: { seconds: 3 } });
  receiver(200);
  await send('POST', '/_sandbox/clock/advance', { body: { seconds: 5 } });
  await send('POST', '/_sandbox/clock/advance', { body: { seconds: 40 } });
  await send('GET', '/_sandbox/webhook_deliveries');
  await send('GET', '/_sandbox/inspector');
  await send('PUT', '/_sandbox/faults', { body: { fail_next: { count: 1, status: 503 } } });
  await send('POST', '/v1/payments', { body: createBody(), idempotencyKey: 'after-fault' });
  await send('POST', '/v1/payments', { body: createBody(), idempotencyKey: 'after-fault' });
  await send('PUT', '/_sandbox/faults', { body: { drop_after_commit: { count: 1 } } });
  await send('POST', '/v1/payments', { body: createBody(), idempotencyKey: 'dropped' });
  await send('GET', '/_sandbox/faults');
  await send('POST', '/v1/payments', { body: createBody(), idempotencyKey: 'dropped' });
  await send('GET', '/v1/webhook_endpoints');
  await send('POST', '/_sandbox/reset');
  await send('GET', '/v1/payments');
  await send('GET', '/_sandbox/clock');
  note(`(received: ${sandbox.received.map((a) => `${a.url} ${a.type} ${a.eventId}`).join(', ')})`);
};

/** Budgets and expiry: a key over its count and its bytes, replays expiring on both clocks. */
const limits: Scenario = async ({ send, wait }) => {
  // All at one instant of the server's clock: the records of one instant go oldest first too.
  for (let index = 0; index < 7; index++) {
    await send('POST', '/v1/payments', {
      body: createBody({ description: `${index}`.repeat(900) }),
      idempotencyKey: `big-${index}`,
    });
  }
  await send('GET', '/v1/payments?limit=100');
  for (let index = 0; index < 7; index++) {
    await send('POST', '/v1/payments', {
      body: createBody({ description: `${index}`.repeat(900) }),
      idempotencyKey: `big-${index}`,
    });
  }
  await send('POST', '/_sandbox/reset');
  for (let index = 0; index < 6; index++) {
    await send('POST', '/v1/payments', {
      body: createBody({ amount: 100 + index }),
      idempotencyKey: `small-${index}`,
    });
  }
  await send('GET', '/v1/payments?limit=100');
  await send('POST', '/v1/payments', {
    body: createBody({ amount: 100 }),
    idempotencyKey: 'small-0',
  });
  await send('POST', '/v1/payments', {
    body: createBody({ amount: 105 }),
    idempotencyKey: 'small-5',
  });
  await send('POST', '/_sandbox/clock/advance', { body: { seconds: 50 } });
  await send('POST', '/v1/payments', {
    body: createBody({ amount: 105 }),
    idempotencyKey: 'small-5',
  });
  wait(20_000);
  await send('POST', '/v1/payments', {
    body: createBody({ amount: 104 }),
    idempotencyKey: 'small-4',
  });
  await send('GET', '/v1/payments?limit=100');
  // Pending payments evicted before they settle are never settled; the kept ones are, once.
  const pending: string[] = [];
  for (let index = 0; index < 6; index++) {
    const made = await send('POST', '/v1/payments', {
      body: createBody({ ...PENDING, amount: 200 + index }),
    });
    pending.push(made.body.id);
  }
  await send('GET', `/v1/payments?starting_after=${pending[0]}`);
  await send('GET', `/v1/payments?starting_after=${pending[5]}`);
  await send('POST', '/_sandbox/clock/advance', { body: { seconds: 10 } });
  await send('POST', '/_sandbox/clock/advance', { body: { seconds: 10 } });
  await send('GET', '/v1/payments?limit=100');
  await send('GET', '/_sandbox/inspector');
};

/** Endpoints: a filter, a receiver that fails to the end of the schedule, one gone (410), the cap. */
const webhooks: Scenario = async ({ sandbox, send, note }) => {
  sandbox.receiverStatus = (url) =>
    url.endsWith('/failing') ? 500 : url.endsWith('/gone') ? 410 : 200;
  await send('POST', '/v1/webhook_endpoints', {
    body: { url: 'https://receiver.example/failing' },
  });
  await send('POST', '/v1/webhook_endpoints', {
    body: { url: 'https://receiver.example/failed-only', events: ['payment.failed'] },
  });
  await send('POST', '/v1/webhook_endpoints', { body: { url: 'https://receiver.example/gone' } });
  const succeeded = await send('POST', '/v1/payments', { body: createBody() });
  await send('POST', '/v1/payments', {
    body: createBody({ payment_method: { type: 'token', token: 'tok_test_declined' } }),
  });
  await send('GET', '/v1/webhook_endpoints');
  for (const seconds of [10, 60, 300, 1800, 3600, 7200, 14_400, 28_800, 86_400]) {
    await send('POST', '/_sandbox/clock/advance', { body: { seconds } });
  }
  await send('GET', '/_sandbox/webhook_deliveries');
  note(`(received: ${sandbox.received.map((a) => `${a.url} ${a.type} ${a.eventId}`).join(', ')})`);
  const [first] = sandbox.received;
  await send('POST', `/_sandbox/events/${first?.eventId}/redeliver`);
  await send('GET', `/_sandbox/webhook_deliveries?event_id=${first?.eventId}`);
  for (let index = 0; index < 14; index++) {
    await send('POST', '/v1/webhook_endpoints', {
      body: { url: `https://receiver.example/n${index}` },
    });
  }
  const listed = await send('GET', '/v1/webhook_endpoints');
  await send('DELETE', `/v1/webhook_endpoints/${listed.body.data[0].id}`);
  await send('DELETE', `/v1/webhook_endpoints/${listed.body.data[0].id}`);
  await send('POST', '/v1/webhook_endpoints', { body: { url: 'https://receiver.example/last' } });
  await send('GET', '/v1/webhook_endpoints');
  await send('POST', `/v1/payments/${succeeded.body.id}/refunds`, { body: { amount: 1000 } });
  note(`(received: ${sandbox.received.length} attempts)`);
  await send('GET', '/_sandbox/inspector');
};

/** Text beyond ASCII: sizes in UTF-16 and UTF-8 differ, lone surrogates have no UTF-8 form. */
const text: Scenario = async ({ sandbox, send }) => {
  await send('POST', '/v1/webhook_endpoints', { body: { url: 'https://receiver.example/t' } });
  sandbox.receiverStatus = 500;
  const descriptions = ['€'.repeat(900), '😀'.repeat(450), 'a\ud800b', '\udfff', 'ж\u0000ж'];
  // Eight rounds: past the key's budget, so what is evicted first is compared too.
  for (let round = 0; round < 8; round++) {
    for (const [index, description] of descriptions.entries()) {
      const idempotencyKey = `text-${round}-${index}`;
      await send('POST', '/v1/payments', { body: createBody({ description }), idempotencyKey });
      await send('POST', '/v1/payments', { body: createBody({ description }), idempotencyKey });
    }
  }
  await send('POST', '/_sandbox/clock/advance', { body: { seconds: 10 } });
  await send('GET', '/v1/payments?limit=100');
  await send('POST', '/v1/payments', {
    body: createBody({ description: descriptions[0] }),
    idempotencyKey: 'text-0-0',
  });
  await send('GET', '/_sandbox/webhook_deliveries');
  await send('GET', '/_sandbox/inspector');
};

/** The sandbox's totals: payments and Idempotency-Key records, each capped over all keys. */
const totals: Scenario = async ({ send, wait }) => {
  const created = await send('POST', '/v1/payments', { body: createBody(), idempotencyKey: 'c' });
  const id = created.body.id as string;
  for (let index = 0; index < 5; index++) {
    wait(1);
    await send('POST', `/v1/payments/${id}/refunds`, {
      body: { amount: 10 },
      idempotencyKey: `refund-${index}`,
    });
  }
  await send('POST', `/v1/payments/${id}/refunds`, { body: { amount: 10 } });
  await send('POST', '/v1/payments', { body: createBody() });
  await send('POST', '/v1/payments', { body: createBody(), idempotencyKey: 'c' });
  await send('GET', `/v1/payments/${id}`);
  await send('POST', '/_sandbox/clock/advance', { body: { seconds: 61 } });
  await send('POST', '/v1/payments', { body: createBody(), idempotencyKey: 'after-expiry' });
  await send('POST', '/_sandbox/reset');
  await send('POST', '/v1/payments', { body: createBody(), idempotencyKey: 'c' });
};

/** Amounts at their bounds, partial captures and refunds, every failing token, a pending decline. */
const edges: Scenario = async ({ send }) => {
  const largest = 999_999_999_999;
  const big = await send('POST', '/v1/payments', {
    body: createBody({ amount: largest, currency: 'RUB', capture: false }),
  });
  await send('POST', `/v1/payments/${big.body.id}/capture`, { body: { amount: largest - 1 } });
  await send('POST', `/v1/payments/${big.body.id}/refunds`, { body: { amount: largest - 2 } });
  await send('POST', `/v1/payments/${big.body.id}/refunds`, { body: { amount: 1 } });
  await send('POST', `/v1/payments/${big.body.id}/refunds`, { body: { amount: 1 } });
  await send('POST', `/v1/payments/${big.body.id}/cancel`, { body: {} });
  await send('POST', '/v1/payments', { body: createBody({ amount: largest + 1 }) });
  await send('POST', '/v1/payments', { body: createBody({ amount: 0 }) });
  const small = await send('POST', '/v1/payments', {
    body: createBody({ amount: 1, capture: false }),
  });
  await send('POST', `/v1/payments/${small.body.id}/capture`, { body: { amount: 2 } });
  await send('POST', `/v1/payments/${small.body.id}/cancel`, { body: {} });
  await send('POST', `/v1/payments/${small.body.id}/capture`, { body: {} });
  for (const token of [
    'tok_test_declined',
    'tok_test_insufficient_funds',
    'tok_test_expired_card',
    'tok_test_processing_error',
    'tok_test_pending_declined',
    'tok_test_unknown',
  ]) {
    const made = await send('POST', '/v1/payments', {
      body: createBody({ payment_method: { type: 'token', token } }),
    });
    if (made.status === 201)
      await send('POST', `/v1/payments/${made.body.id}/refunds`, { body: { amount: 1 } });
  }
  await send('POST', '/_sandbox/clock/advance', { body: { seconds: 3600 } });
  await send('GET', '/v1/payments?limit=3');
  await send('GET', '/v1/payments?limit=0');
  await send('GET', '/v1/payments?limit=101');
  await send('GET', '/_sandbox/inspector');
};

/** A key as a client may send it by mistake: in a header, the query, the path, a body. */
const LIVE_KEY = 'sk_live_51Habcdefghijklmnopqrstu';

/** The inspector's records of secrets sent everywhere, in bodies whole, cut at 4,096 characters and not JSON. */
const inspected: Scenario = async ({ send }) => {
  const hook = 'https://user:hunter2@receiver.example/h?token=Qx7Kp2Vm9Zt4';
  await send('POST', `/v1/payments?api_key=${LIVE_KEY}`, {
    body: createBody({ description: `pay ${LIVE_KEY}` }),
    idempotencyKey: 'inspected',
    headers: { 'x-api-key': LIVE_KEY },
  });
  await send('POST', '/v1/webhook_endpoints', { body: { url: hook } });
  await send('POST', '/v1/webhook_endpoints', { body: { url: hook, padding: 'p'.repeat(5000) } });
  await send('POST', '/v1/payments', {
    body: createBody({ description: `${LIVE_KEY} ${'€'.repeat(5000)}` }),
  });
  await send('POST', '/v1/payments', { rawBody: `amount=1000&key=${LIVE_KEY}&hook=${hook}` });
  await send('POST', '/v1/payments', {
    rawBody: String.raw`{"amount":1000,"description":"\ud800 sk\u005flive_51Habcdefgh`,
  });
  await send('GET', `/v1/payments/${LIVE_KEY}`);
  await send('GET', '/_sandbox/inspector');
};

/** Every scenario: its title, the options of its sandbox, its requests. */
export const SCENARIOS: Array<[string, SandboxOptions, Scenario]> = [
  [
    "the inspector's records: secrets in a header, the query, the path and bodies (cut, not JSON)",
    {},
    inspected,
  ],
  ['amounts at their bounds, partial captures and refunds, every failing token', {}, edges],
  [
    'the totals over all keys: payments and Idempotency-Key records',
    { maxPaymentsTotal: 4, idempotencyTtlSeconds: 60 },
    totals,
  ],
  [
    'text beyond ASCII near the byte budgets',
    { limits: { keyMemoryBudgetBytes: MIN_KEY_MEMORY_BUDGET_BYTES } },
    text,
  ],
  [
    'a lifecycle of every step, webhooks retried, a fault, a reset',
    { settlementDelaySeconds: 5 },
    lifecycle,
  ],
  [
    'a key over its count, replays expiring on either clock, pending payments evicted',
    { maxPaymentsPerKey: 4, idempotencyTtlSeconds: 60 },
    limits,
  ],
  [
    'webhooks: a filter, retries to the end, a gone endpoint, a redelivery, the cap of 16',
    {},
    webhooks,
  ],
];

/**
 * The same requests on the store and on a memory store: the same answers, line for line.
 *
 * @example
 * sameAnswerTests({ factory: redisStores(), manifest: REDIS_MANIFEST });
 */
export function sameAnswerTests(common: SuiteCommon): void {
  describe('the same requests as on the memory store', () => {
    for (const [title, options, scenario] of SCENARIOS) {
      it(`are answered the same, byte for byte: ${title}`, () =>
        withSandbox(common, options, async (sandbox) => {
          const key = newKey('same');
          const reference = await openSandbox({}, options);
          try {
            const expected = await transcript(reference, key, scenario);
            expect(await transcript(sandbox, key, scenario)).toEqual(expected);
          } finally {
            await reference.close();
          }
        }));
    }
  });
}
