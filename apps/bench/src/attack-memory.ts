// Memory under attack: replays the worst case of each attack of issues 10 and 23 on a fresh CLI with the default budgets: peak RSS vs the limit, a neighbour's latency.
import {
  advanceClockToLimit,
  amplifyingBodies,
  call,
  count,
  dribble,
  floodKeys,
  floodLongPaths,
  floodWebhooks,
  type HeldSockets,
  holdWithLatency,
  neighbourLatency,
  newTally,
  PROCESS_RSS_LIMIT_MIB,
  pause,
  paymentBody,
  pipelineUnread,
  pool,
  rawPost,
  type Sandbox,
  sendWithoutReading,
  startReceiver,
  startSandbox,
  type Tally,
  unexpectedServerErrors,
  webhooksOverKeys,
} from '@payment-service/reliability';
import { MOCK_CLI_NODE_FLAGS } from './paths.js';

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
  /**
   * A neighbour key's median list time on the fresh CLI, in ms (round-two replays): before the
   * attack, during the same load of ordinary requests when the attack is a load (its baseline:
   * on two shared cores any load slows a neighbour), and during the attack. The promise is at
   * most 2× the baseline.
   */
  neighbour?: {
    quietMs: number;
    ordinaryLoadMs?: number;
    attackMs: number;
    /** The neighbour's reads under attack that were refused or failed (a refusal is not speed). */
    attackFailures: number;
  };
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
  /** How long the server gets to work through the pipelined requests it read before the probe. */
  pipelineSettleMs: number;
  hangingPayments: number;
  slowSockets: number;
  slowWaitMs: number;
  amplifyingRequests: number;
  nonReadingSockets: number;
  latencyConnections: number;
  hangingKeys: number;
  neighbourSamples: number;
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
        pipelineSettleMs: 3_000,
        hangingPayments: 200,
        slowSockets: 900,
        slowWaitMs: 15_000,
        amplifyingRequests: 400,
        nonReadingSockets: 150,
        latencyConnections: 1000,
        hangingKeys: 8,
        neighbourSamples: 40,
      }
    : {
        clockCalls: 150,
        retries: 20,
        floodKeys: 100,
        longPaths: 100,
        hookPayments: 250,
        pipelineSockets: 2,
        pipelinePerSocket: 50,
        pipelineSettleMs: 500,
        hangingPayments: 10,
        slowSockets: 20,
        slowWaitMs: 1_000,
        amplifyingRequests: 20,
        nonReadingSockets: 20,
        latencyConnections: 100,
        hangingKeys: 8,
        neighbourSamples: 5,
      };
}

const errorsOf = (tally: Tally) =>
  Object.values(unexpectedServerErrors(tally)).reduce((sum, n) => sum + n, 0);

/** One replay: what it sent, and what it found besides memory. */
interface Replay {
  attack: string;
  load: string;
  /** Whether a neighbour's latency is read before and during the attack. */
  neighbour?: true;
  /** The same load made of ordinary requests, read the same way as the attack's baseline. */
  ordinaryLoad?(sandbox: Sandbox): Promise<unknown>;
  run(
    sandbox: Sandbox,
    during: (attack: Promise<unknown>) => Promise<void>,
  ): Promise<{ serverErrors: number; outcome: string }>;
}

const NEIGHBOUR = 'sk_test_bench_attack_neighbour';

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
        await pause(sizes.pipelineSettleMs); // the server works through what it read
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
    ...roundTwo(sizes),
  ];
}

/** The attacks of issue 23, each read with a neighbour's latency while it runs. */
function roundTwo(sizes: AttackSizes): Replay[] {
  const { events, unknownMembers } = amplifyingBodies();
  return [
    {
      attack: 'error-list amplification',
      load: `${sizes.amplifyingRequests} × a 54 KB body of distinct event strings and a 64 KB body of unknown members, 4 keys at once`,
      neighbour: true,
      ordinaryLoad: (sandbox) =>
        pool(sizes.amplifyingRequests, 4, async (index) => {
          await call(sandbox.url, {
            path: '/v1/payments',
            key: `sk_test_bench_attack_ordinary_${index % 4}`,
            body: paymentBody(),
          });
        }),
      async run(sandbox, during) {
        const tally = newTally();
        let largest = 0;
        const cpuBefore = sandbox.cpuMs();
        await during(
          pool(sizes.amplifyingRequests, 4, async (index) => {
            const answer = await call(sandbox.url, {
              path: index % 2 === 0 ? '/v1/webhook_endpoints' : '/v1/payments',
              key: `sk_test_bench_attack_amplify_${index % 4}`,
              body: index % 2 === 0 ? events : unknownMembers,
            });
            count(tally, answer);
            largest = Math.max(largest, Buffer.byteLength(answer.text));
          }),
        );
        const cpuPerRequest = (sandbox.cpuMs() - cpuBefore) / sizes.amplifyingRequests;
        return {
          serverErrors: errorsOf(tally),
          outcome: `largest answer ${largest.toLocaleString('en-US')} B; server CPU ${cpuPerRequest.toFixed(2)} ms a request; ${JSON.stringify(tally.byStatus)}`,
        };
      },
    },
    {
      attack: 'readers that never read',
      load: `${sizes.nonReadingSockets} sockets each sending one amplifying body, never reading`,
      neighbour: true,
      async run(sandbox, during) {
        const key = 'sk_test_bench_attack_nonreader';
        const half = Math.floor(sizes.nonReadingSockets / 2);
        const held: HeldSockets[] = [];
        try {
          await during(
            (async () => {
              held.push(
                await sendWithoutReading(
                  sandbox.port,
                  rawPost('/v1/webhook_endpoints', key, events),
                  half,
                ),
              );
              held.push(
                await sendWithoutReading(
                  sandbox.port,
                  rawPost('/v1/payments', key, unknownMembers),
                  sizes.nonReadingSockets - half,
                ),
              );
            })(),
          );
          const probe = await call(sandbox.url, {
            path: '/v1/payments',
            key: NEIGHBOUR,
            body: paymentBody(),
          });
          return {
            serverErrors: probe.status >= 500 || probe.status === 0 ? 1 : 0,
            outcome: `neighbour's create ${probe.status}`,
          };
        } finally {
          for (const sockets of held) sockets.close();
        }
      },
    },
    {
      attack: 'latency lock',
      load: `one key with latency_ms 60,000 sends one create on each of ${sizes.latencyConnections.toLocaleString('en-US')} connections`,
      neighbour: true,
      async run(sandbox, during) {
        const lock = await holdWithLatency(sandbox.url, sandbox.port, 'sk_test_bench_attack_lock', {
          connections: sizes.latencyConnections,
          latencyMs: 60_000,
        });
        try {
          await lock.untilAnswered(sizes.latencyConnections - 16);
          const started = performance.now();
          const create = await call(sandbox.url, {
            path: '/v1/payments',
            key: NEIGHBOUR,
            body: paymentBody(),
          });
          const createMs = performance.now() - started;
          await during(Promise.resolve());
          return {
            serverErrors: create.status >= 500 || create.status === 0 ? 1 : 0,
            outcome: `neighbour's create ${create.status} in ${Math.round(createMs)} ms; the lock's answers ${JSON.stringify(lock.answered.byStatus)}`,
          };
        } finally {
          lock.close();
        }
      },
    },
    {
      attack: 'hanging receivers over many keys',
      load: `${sizes.hangingKeys} keys × 12 payments into a receiver that never answers, then one of a victim key`,
      async run(sandbox) {
        const hanging = await startReceiver('hang');
        const answering = await startReceiver('answer');
        try {
          const tally = await webhooksOverKeys(
            sandbox.url,
            'sk_test_bench_attack_starve_',
            hanging.url,
            {
              keys: sizes.hangingKeys,
              paymentsPerKey: 12,
            },
          );
          const victim = 'sk_test_bench_attack_starve_victim';
          await call(sandbox.url, {
            path: '/v1/webhook_endpoints',
            key: victim,
            body: { url: answering.url },
          });
          const sent = performance.now();
          const payment = await call(sandbox.url, {
            path: '/v1/payments',
            key: victim,
            body: paymentBody(),
          });
          const arrival = await Promise.race([
            answering.waitFor(String(payment.json?.id)).then(({ at }) => at - sent),
            pause(70_000).then(() => undefined),
          ]);
          return {
            serverErrors: errorsOf(tally),
            outcome:
              arrival === undefined
                ? "victim's webhook: **not within 70 s**"
                : `victim's webhook after ${Math.round(arrival)} ms`,
          };
        } finally {
          await hanging.close();
          await answering.close();
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
  const sizes = attackSizes(mode);
  for (const replay of replays(sizes)) {
    // Started as a user's npx starts the bin (the shebang's heap flag), so no relaunch: one process.
    const sandbox = await startSandbox(['--quiet'], {}, { nodeFlags: MOCK_CLI_NODE_FLAGS });
    const rssStartMiB = sandbox.rssMiB();
    const started = performance.now();
    try {
      const quiet =
        replay.neighbour === true
          ? await neighbourLatency(sandbox.url, NEIGHBOUR, sizes.neighbourSamples)
          : undefined;
      const ordinary =
        replay.ordinaryLoad === undefined
          ? undefined
          : (
              await Promise.all([
                neighbourLatency(sandbox.url, NEIGHBOUR, sizes.neighbourSamples),
                replay.ordinaryLoad(sandbox),
              ])
            )[0];
      let underAttack: { medianMs: number; failures: number } | undefined;
      const during = async (attack: Promise<unknown>) => {
        const [read] = await Promise.all([
          neighbourLatency(sandbox.url, NEIGHBOUR, sizes.neighbourSamples),
          attack,
        ]);
        underAttack = read;
      };
      const { serverErrors, outcome } = await replay.run(sandbox, during);
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
        ...(quiet !== undefined && underAttack !== undefined
          ? {
              neighbour: {
                quietMs: quiet.medianMs,
                ...(ordinary === undefined ? {} : { ordinaryLoadMs: ordinary.medianMs }),
                attackMs: underAttack.medianMs,
                attackFailures: underAttack.failures,
              },
            }
          : {}),
      });
      log(`attack memory: ${replay.attack}: peak ${peakRssMiB.toFixed(1)} MiB; ${outcome}`);
    } finally {
      await sandbox.stop();
    }
  }
  return results;
}
