// Memory under attack: replays the worst case of each issue-10 attack on a fresh CLI with the default budgets, peak RSS vs the limit.
import {
  advanceClockToLimit,
  call,
  dribble,
  floodKeys,
  floodLongPaths,
  floodWebhooks,
  type HeldSockets,
  PROCESS_RSS_LIMIT_MIB,
  pause,
  paymentBody,
  pipelineUnread,
  pool,
  type Sandbox,
  startReceiver,
  startSandbox,
  type Tally,
  unexpectedServerErrors,
} from '@payment-service/reliability';

/** The documented promise: whatever clients do, the CLI stays under this RSS (MiB). */
export const ATTACK_RSS_LIMIT_MIB = PROCESS_RSS_LIMIT_MIB;
/** The CLI's default store budget for the whole sandbox (MiB), `--memory-budget`. */
export const DEFAULT_STORE_BUDGET_MIB = 256;

/** One replayed attack on its own fresh CLI. */
export interface AttackMemoryResult {
  attack: string;
  /** What was sent, in words (counts and sizes). */
  load: string;
  seconds: number;
  rssStartMiB: number;
  /** VmHWM: the largest RSS the process reached. */
  peakRssMiB: number;
  alive: boolean;
  /** 5xx answers (and unanswered requests) other than 503 sandbox_full, counted. */
  serverErrors: number;
  /** What else the replay checked (victim kept, neighbour's delay, sockets cut …). */
  outcome: string;
  withinLimit: boolean;
}

/** Sizes of the replays per mode: the worst cases in full, a sliver in smoke. */
export interface AttackSizes {
  clockCalls: number;
  retries: number;
  floodKeys: number;
  longPaths: number;
  hookPayments: number;
  pipelineSockets: number;
  pipelinePerSocket: number;
  hangingPayments: number;
  slowSockets: number;
  slowWaitMs: number;
}

/**
 * The replay sizes of a bench mode.
 *
 * @example
 * attackSizes('full').longPaths; // 30000
 */
export function attackSizes(mode: 'full' | 'smoke'): AttackSizes {
  return mode === 'full'
    ? {
        clockCalls: 10_000,
        retries: 2_000,
        floodKeys: 20_000,
        longPaths: 30_000,
        hookPayments: 100_000,
        pipelineSockets: 8,
        pipelinePerSocket: 2_000,
        hangingPayments: 200,
        slowSockets: 900,
        slowWaitMs: 15_000,
      }
    : {
        clockCalls: 150,
        retries: 50,
        floodKeys: 300,
        longPaths: 300,
        hookPayments: 1_000,
        pipelineSockets: 2,
        pipelinePerSocket: 100,
        hangingPayments: 10,
        slowSockets: 50,
        slowWaitMs: 3_000,
      };
}

const errorsOf = (tally: Tally) =>
  Object.values(unexpectedServerErrors(tally)).reduce((sum, n) => sum + n, 0);

/** One replay: what it sent, and what it found besides memory. */
interface Replay {
  attack: string;
  load: string;
  run(sandbox: Sandbox): Promise<{ serverErrors: number; outcome: string }>;
}

function replays(sizes: AttackSizes): Replay[] {
  return [
    {
      attack: 'clock pushed to its limit',
      load: `≤ ${sizes.clockCalls.toLocaleString('en-US')} one-year advances, then a refund`,
      async run(sandbox) {
        const key = 'sk_test_bench_attack_clock';
        const made = await call(sandbox.url, { path: '/v1/payments', key, body: paymentBody() });
        const { calls, last } = await advanceClockToLimit(sandbox.url, key, sizes.clockCalls);
        const refund = await call(sandbox.url, {
          path: `/v1/payments/${String(made.json?.id)}/refunds`,
          key,
          body: { amount: 100 },
        });
        const errors = [made, last, refund].filter((a) => a.status >= 500 || a.status === 0);
        return {
          serverErrors: errors.length,
          outcome: `stopped after ${calls} calls with ${last.status}; refund ${refund.status}`,
        };
      },
    },
    {
      attack: 'retries after dropped answers',
      load: `${sizes.retries.toLocaleString('en-US')} refunds under drop_after_commit, each retried`,
      async run(sandbox) {
        const key = 'sk_test_bench_attack_retry';
        const made = await call(sandbox.url, {
          path: '/v1/payments',
          key,
          body: paymentBody(sizes.retries * 2),
        });
        const path = `/v1/payments/${String(made.json?.id)}/refunds`;
        let errors = 0;
        for (let index = 0; index < sizes.retries; index++) {
          await call(sandbox.url, {
            method: 'PUT',
            path: '/_sandbox/faults',
            key,
            body: { drop_after_commit: { count: 1 } },
          });
          const body = { amount: 1 };
          const idempotencyKey = `refund-${index}`;
          await call(sandbox.url, { path, key, idempotencyKey, body });
          const retry = await call(sandbox.url, { path, key, idempotencyKey, body });
          if (retry.status >= 500 || retry.status === 0) errors++;
        }
        const after = await call(sandbox.url, {
          path: `/v1/payments/${String(made.json?.id)}`,
          key,
        });
        return {
          serverErrors: errors,
          outcome: `amount_refunded ${String(after.json?.amount_refunded)} (want ${sizes.retries})`,
        };
      },
    },
    {
      attack: 'keys flood',
      load: `a victim's payment, then ${sizes.floodKeys.toLocaleString('en-US')} creates from as many keys`,
      async run(sandbox) {
        const victim = 'sk_test_bench_attack_victim';
        const first = await call(sandbox.url, {
          path: '/v1/payments',
          key: victim,
          idempotencyKey: 'v',
          body: paymentBody(),
        });
        const tally = await floodKeys(sandbox.url, 'sk_test_bench_attack_flood_', sizes.floodKeys);
        const retry = await call(sandbox.url, {
          path: '/v1/payments',
          key: victim,
          idempotencyKey: 'v',
          body: paymentBody(),
        });
        const kept = retry.status === 201 && retry.json?.id === first.json?.id;
        return {
          serverErrors: errorsOf(tally),
          outcome: `victim ${kept ? 'kept' : '**lost**'}; ${tally.byStatus[503] ?? 0} × 503`,
        };
      },
    },
    {
      attack: 'long paths',
      load: `${sizes.longPaths.toLocaleString('en-US')} captures of 15,000-character ids, unique Idempotency-Keys, 8 keys`,
      async run(sandbox) {
        const tally = await floodLongPaths(sandbox.url, 'sk_test_bench_attack_long_', {
          requests: sizes.longPaths,
          pathChars: 15_000,
          keys: 8,
        });
        return { serverErrors: errorsOf(tally), outcome: JSON.stringify(tally.byStatus) };
      },
    },
    {
      attack: 'webhooks into a hanging receiver',
      load: `${sizes.hookPayments.toLocaleString('en-US')} payments over 64 keys, receiver never answers`,
      async run(sandbox) {
        const receiver = await startReceiver('hang');
        try {
          const tally = await floodWebhooks(
            sandbox.url,
            'sk_test_bench_attack_hook_',
            receiver.url,
            {
              keys: 64,
              payments: sizes.hookPayments,
            },
          );
          return { serverErrors: errorsOf(tally), outcome: JSON.stringify(tally.byStatus) };
        } finally {
          await receiver.close();
        }
      },
    },
    {
      attack: 'pipelined answers never read',
      load: `${sizes.pipelineSockets} sockets × ${sizes.pipelinePerSocket.toLocaleString('en-US')} lists of 100 payments`,
      async run(sandbox) {
        const key = 'sk_test_bench_attack_pipeline';
        await pool(100, 4, async (index) => {
          await call(sandbox.url, {
            path: '/v1/payments',
            key,
            idempotencyKey: `p${index}`,
            body: paymentBody(),
          });
        });
        const held = await pipelineUnread(sandbox.port, key, {
          sockets: sizes.pipelineSockets,
          requestsPerSocket: sizes.pipelinePerSocket,
        });
        await pause(3000); // the server works through what it read
        const probe = await call(sandbox.url, { path: '/v1/payments?limit=1', key });
        held.close();
        return { serverErrors: probe.status >= 500 ? 1 : 0, outcome: `probe ${probe.status}` };
      },
    },
    {
      attack: 'a neighbour hangs its receiver',
      load: `${sizes.hangingPayments} payments into a hanging receiver, then one of another key`,
      async run(sandbox) {
        const hanging = await startReceiver('hang');
        const answering = await startReceiver('answer');
        try {
          const register = (key: string, url: string) =>
            call(sandbox.url, { path: '/v1/webhook_endpoints', key, body: { url } });
          await register('sk_test_bench_attack_fair_a', hanging.url);
          await register('sk_test_bench_attack_fair_b', answering.url);
          await pool(sizes.hangingPayments, 8, async () => {
            await call(sandbox.url, {
              path: '/v1/payments',
              key: 'sk_test_bench_attack_fair_a',
              body: paymentBody(),
            });
          });
          const sent = performance.now();
          const payment = await call(sandbox.url, {
            path: '/v1/payments',
            key: 'sk_test_bench_attack_fair_b',
            body: paymentBody(),
          });
          const arrival = await Promise.race([
            answering.waitFor(String(payment.json?.id)).then(({ at }) => at - sent),
            pause(30_000).then(() => undefined),
          ]);
          return {
            serverErrors: 0,
            outcome:
              arrival === undefined
                ? "neighbour's webhook: **not within 30 s**"
                : `neighbour's first webhook after ${Math.round(arrival)} ms`,
          };
        } finally {
          await hanging.close();
          await answering.close();
        }
      },
    },
    {
      attack: 'slow clients',
      load: `${sizes.slowSockets} sockets dribbling headers (default timeouts)`,
      async run(sandbox) {
        let slow: HeldSockets | undefined;
        try {
          slow = await dribble(sandbox.port, {
            part: 'headers',
            sockets: sizes.slowSockets,
            intervalMs: 500,
          });
          const started = performance.now();
          const normal = await call(sandbox.url, {
            path: '/v1/payments',
            key: 'sk_test_bench_attack_slow',
            body: paymentBody(),
          });
          const answeredMs = performance.now() - started;
          for (let waited = 0; waited < sizes.slowWaitMs; waited += 250) {
            if (slow.closedByServer() >= sizes.slowSockets) break;
            await pause(250);
          }
          return {
            serverErrors: normal.status >= 500 || normal.status === 0 ? 1 : 0,
            outcome: `normal create ${normal.status} in ${Math.round(answeredMs)} ms; ${slow.closedByServer()} of ${sizes.slowSockets} cut within ${sizes.slowWaitMs / 1000} s`,
          };
        } finally {
          slow?.close();
        }
      },
    },
  ];
}

/**
 * Replays each attack on its own fresh CLI (`--quiet`, default budgets) and reads its peak RSS.
 *
 * @example
 * const rows = await measureAttackMemory('smoke', console.error);
 * rows.every((row) => row.withinLimit); // true once the issue-10 fixes are in
 */
export async function measureAttackMemory(
  mode: 'full' | 'smoke',
  log: (line: string) => void,
): Promise<AttackMemoryResult[]> {
  const results: AttackMemoryResult[] = [];
  for (const replay of replays(attackSizes(mode))) {
    const sandbox = await startSandbox(['--quiet']);
    const rssStartMiB = sandbox.rssMiB();
    const started = performance.now();
    try {
      const { serverErrors, outcome } = await replay.run(sandbox);
      const alive = sandbox.alive();
      const peakRssMiB = alive ? sandbox.peakRssMiB() : Number.NaN;
      results.push({
        attack: replay.attack,
        load: replay.load,
        seconds: (performance.now() - started) / 1000,
        rssStartMiB,
        peakRssMiB,
        alive,
        serverErrors,
        outcome,
        withinLimit: alive && peakRssMiB < ATTACK_RSS_LIMIT_MIB,
      });
      log(`attack memory: ${replay.attack}: peak ${peakRssMiB.toFixed(1)} MiB; ${outcome}`);
    } finally {
      await sandbox.stop();
    }
  }
  return results;
}
