// Attack 4: memory by bytes. Long paths with unique Idempotency-Keys, payments whose webhooks go
// to a receiver that never answers, pipelined requests never read: RSS stays under the budget.
import { afterEach, describe, expect, it } from 'vitest';
import { floodLongPaths, floodWebhooks } from './attacks/floods.js';
import { pipelineUnread } from './attacks/sockets.js';
import { call, floodAgent, paymentBody, pool, unexpectedServerErrors } from './http.js';
import { PROCESS_RSS_LIMIT_MIB, rssBoundMiB, settledRssMiB } from './memory.js';
import { type Receiver, startReceiver } from './receiver.js';
import { type Sandbox, startSandbox } from './sandbox.js';

// A small budget so that it bites after seconds of traffic rather than minutes.
const BUDGET_MIB = 32;
const FLAGS = ['--quiet', '--memory-budget', String(BUDGET_MIB), '--key-memory-budget', '4'];

let sandbox: Sandbox | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await sandbox?.stop();
  await receiver?.close();
  sandbox = undefined;
  receiver = undefined;
});

async function fresh(): Promise<{ sandbox: Sandbox; bound: number }> {
  sandbox = await startSandbox(FLAGS);
  return { sandbox, bound: rssBoundMiB(sandbox.rssMiB(), BUDGET_MIB) };
}

function expectUnderBudget(current: Sandbox, settled: number, bound: number): void {
  expect(current.alive()).toBe(true);
  expect(settled, `RSS ${settled.toFixed(1)} MiB, bound ${bound.toFixed(1)} MiB`).toBeLessThan(
    bound,
  );
  expect(current.peakRssMiB()).toBeLessThan(PROCESS_RSS_LIMIT_MIB);
}

// Each flood is some 30 s of work on two busy cores when it runs alone and up to twice that beside
// the other suites of npm test (60 s timed out so once): the bound below catches a hang, not speed.
describe('memory is bounded in bytes', { timeout: 180_000 }, () => {
  it('10,000 captures of 7,500-character ids (just under the 8 KiB header cap) with unique Idempotency-Keys', async () => {
    const { sandbox: current, bound } = await fresh();
    const tally = await floodLongPaths(current.url, 'sk_test_reliability_long_', {
      requests: 10_000,
      pathChars: 7_500,
      keys: 8,
    });
    expect(unexpectedServerErrors(tally)).toEqual({});
    // They reached the app: each is a stored 404, not a parser refusal.
    expect(tally.byStatus[404]).toBeGreaterThan(0);
    expect(tally.fullWithoutRetryAfter).toBe(0);
    expectUnderBudget(current, await settledRssMiB(current, 2000), bound);
    // The 15,000-character ids never reach the app: a 400 from the header cap.
    const refused = await floodLongPaths(current.url, 'sk_test_reliability_long_', {
      requests: 200,
      pathChars: 15_000,
      keys: 8,
    });
    expect(refused.byStatus).toEqual({ 400: 200 });
  });

  it('30,000 payments whose webhooks go to a receiver that never answers', async () => {
    const { sandbox: current, bound } = await fresh();
    receiver = await startReceiver('hang');
    const tally = await floodWebhooks(current.url, 'sk_test_reliability_hang_', receiver.url, {
      keys: 64,
      payments: 30_000,
    });
    expect(unexpectedServerErrors(tally)).toEqual({});
    expect(tally.fullWithoutRetryAfter).toBe(0);
    expectUnderBudget(current, await settledRssMiB(current, 2000), bound);
    // A key that was not part of it still works.
    const other = await call(current.url, {
      path: '/v1/payments',
      key: 'sk_test_reliability_bystander',
      body: paymentBody(),
    });
    expect([201, 503]).toContain(other.status);
  });

  it('4 sockets × 1,500 pipelined list requests whose answers are never read', async () => {
    const { sandbox: current, bound } = await fresh();
    const key = 'sk_test_reliability_pipeline';
    // 100 payments, so every list answer is some 40 kB.
    const agent = floodAgent(4);
    await pool(100, 4, async (index) => {
      const answer = await call(current.url, {
        path: '/v1/payments',
        key,
        idempotencyKey: `p-${index}`,
        body: paymentBody(),
        agent,
      });
      expect(answer.status).toBe(201);
    });
    agent.destroy();
    const held = await pipelineUnread(current.port, key, { sockets: 4, requestsPerSocket: 1_500 });
    try {
      const settled = await settledRssMiB(current, 4000);
      // Another client is still served meanwhile.
      const probe = await call(current.url, { path: '/v1/payments?limit=1', key });
      expect(probe.status).toBe(200);
      expectUnderBudget(current, settled, bound);
    } finally {
      held.close();
    }
  });
});
