// Request floods of the attacks: the clock pushed to its limit, many keys, long paths, webhooks into a hanging receiver.
import {
  type Answer,
  call,
  count,
  floodAgent,
  newTally,
  paymentBody,
  pool,
  type Tally,
} from '../http.js';

/** The spec's timestamp format (`YYYY-MM-DDThh:mm:ssZ`). */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
/** The sandbox clock's documented limit (the team's shared decision): 100 years of offset, in seconds. */
export const CLOCK_LIMIT_SECONDS = 3_155_760_000;
/** The most one `clock/advance` call may move (the spec's maximum: a year). */
export const MAX_ADVANCE_SECONDS = 31_536_000;

/**
 * Advances `key`'s clock by a year per call until an answer is not 200 or `maxCalls` were made.
 *
 * @example
 * const { calls, last } = await advanceClockToLimit(url, key, 10_000); // last.status 400
 */
export async function advanceClockToLimit(
  url: string,
  key: string,
  maxCalls: number,
): Promise<{ calls: number; last: Answer }> {
  const agent = floodAgent(1);
  let last: Answer = { status: 0, headers: {}, text: '', json: undefined };
  let calls = 0;
  try {
    while (calls < maxCalls) {
      calls++;
      last = await call(url, {
        path: '/_sandbox/clock/advance',
        key,
        body: { seconds: MAX_ADVANCE_SECONDS },
        agent,
      });
      if (last.status !== 200) break;
    }
  } finally {
    agent.destroy();
  }
  return { calls, last };
}

/**
 * One create per distinct key `<prefix><n>` (n < keys), each with its own Idempotency-Key.
 *
 * @example
 * const tally = await floodKeys(url, 'sk_test_flood_', 10_050);
 */
export async function floodKeys(
  url: string,
  prefix: string,
  keys: number,
  onAnswer?: (index: number, answer: Answer) => void,
): Promise<Tally> {
  const tally = newTally();
  const agent = floodAgent();
  await pool(keys, 16, async (index) => {
    const answer = await call(url, {
      path: '/v1/payments',
      key: `${prefix}${index}`,
      idempotencyKey: `flood-${index}`,
      body: paymentBody(),
      agent,
    });
    count(tally, answer);
    onAnswer?.(index, answer);
  });
  agent.destroy();
  return tally;
}

/**
 * `requests` captures of a nonexistent payment whose id is `pathChars` long, each with a
 * unique Idempotency-Key, spread round-robin over `keys` keys named `<prefix><n>`.
 *
 * @example
 * const tally = await floodLongPaths(url, 'sk_test_long_', { requests: 10_000, pathChars: 15_000, keys: 8 });
 */
export async function floodLongPaths(
  url: string,
  prefix: string,
  size: { requests: number; pathChars: number; keys: number },
): Promise<Tally> {
  const tally = newTally();
  const agent = floodAgent();
  const filler = 'x'.repeat(size.pathChars);
  await pool(size.requests, 16, async (index) => {
    const answer = await call(url, {
      path: `/v1/payments/pay_${index}${filler}/capture`,
      key: `${prefix}${index % size.keys}`,
      idempotencyKey: `long-${index}`,
      body: {},
      agent,
    });
    count(tally, answer);
  });
  agent.destroy();
  return tally;
}

/**
 * Registers `receiverUrl` as a webhook endpoint of `keys` keys, then creates `payments`
 * payments (with 1,000-character descriptions) spread over them, so every event queues an attempt at a receiver that may hang.
 *
 * @example
 * const tally = await floodWebhooks(url, 'sk_test_hang_', hanging.url, { keys: 8, payments: 20_000 });
 */
export async function floodWebhooks(
  url: string,
  prefix: string,
  receiverUrl: string,
  size: { keys: number; payments: number },
): Promise<Tally> {
  const tally = newTally();
  const agent = floodAgent();
  for (let index = 0; index < size.keys; index++) {
    count(
      tally,
      await call(url, {
        path: '/v1/webhook_endpoints',
        key: `${prefix}${index}`,
        body: { url: receiverUrl },
        agent,
      }),
    );
  }
  // The longest description the spec allows: each payment, its event and its attempt are big.
  const body = { ...paymentBody(), description: 'd'.repeat(1000) };
  await pool(size.payments, 16, async (index) => {
    const answer = await call(url, {
      path: '/v1/payments',
      key: `${prefix}${index % size.keys}`,
      idempotencyKey: `hook-${index}`,
      body,
      agent,
    });
    count(tally, answer);
  });
  agent.destroy();
  return tally;
}
