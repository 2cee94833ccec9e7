// The Valkey/Redis fleet's section of BENCHMARKS.md and its ratios.
import type { RedisFleetResult, SequentialWork } from './redis-fleet.js';
import { SERVER_LABELS, type ServerName } from './servers.js';
import { ratio } from './stats.js';
import type { Endpoint } from './throughput.js';

/**
 * Round trips per request through the whole server as the mock's own test counts them
 * (packages/mock/src/app/redis-round-trips.test.ts): a create with an Idempotency-Key 2, a
 * retrieve 1; the inspector's record of each, held back after the answer, rides in the next
 * request's first write (one at a time, back to back, as the bench sends them).
 */
export const TESTED_ROUND_TRIPS: Record<Endpoint, number> = { create: 2, retrieve: 1 };

/** How far the measured reads per request may be from the test's count to agree with it. */
const AGREEMENT = 0.1;

const rate = (result: RedisFleetResult, server: ServerName, endpoint: Endpoint) =>
  result.throughput.find(
    (entry) => entry.server === server && entry.endpoint === endpoint && entry.correct,
  )?.requestsPerSecond;

/**
 * The fleet's throughput against the memory store and each other, same run, per endpoint.
 *
 * @example
 * redisFleetRatios(result)['create.mock-redis-1/mock-quiet']; // e.g. 0.55
 */
export function redisFleetRatios(result: RedisFleetResult): Record<string, number | null> {
  const ratios: Record<string, number | null> = {};
  for (const endpoint of ['create', 'retrieve'] as const) {
    const memory = rate(result, 'mock-quiet', endpoint);
    const one = rate(result, 'mock-redis-1', endpoint);
    const two = rate(result, 'mock-redis-2', endpoint);
    ratios[`${endpoint}.mock-redis-1/mock-quiet`] = ratio(one, memory);
    ratios[`${endpoint}.mock-redis-2/mock-quiet`] = ratio(two, memory);
    ratios[`${endpoint}.mock-redis-2/mock-redis-1`] = ratio(two, one);
  }
  return ratios;
}

/**
 * Whether one-at-a-time socket reads per request agree with the test's round trips (within 0.1).
 *
 * @example
 * roundTripsAgree({ endpoint: 'retrieve', readsPerRequest: 1.02, failures: 0 } as SequentialWork); // true
 */
export function roundTripsAgree(work: SequentialWork): boolean {
  return (
    work.failures === 0 &&
    Math.abs(work.readsPerRequest - TESTED_ROUND_TRIPS[work.endpoint]) <= AGREEMENT
  );
}

/** The commands that run a script: each is one command a client sent, whatever it runs inside. */
const SCRIPT_COMMANDS = ['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro'];

/**
 * Scripts run per request (EVAL, EVALSHA, FCALL and their read-only forms), from a command breakdown.
 *
 * @example
 * scriptsPerRequest({ evalsha: 2, hget: 5 }); // 2
 */
export function scriptsPerRequest(calls: Record<string, number>): number {
  return SCRIPT_COMMANDS.reduce((sum, name) => sum + (calls[name] ?? 0), 0);
}

const describeCalls = (calls: Record<string, number>) =>
  Object.entries(calls)
    .sort((a, b) => b[1] - a[1])
    .map(([name, value]) => `${name} ${value.toFixed(2)}`)
    .join(', ') || 'none';

/**
 * The "Valkey/Redis fleet" section of BENCHMARKS.md.
 *
 * @example
 * renderRedisFleet(result).join('\n').startsWith('\n## Valkey/Redis fleet'); // true
 */
export function renderRedisFleet(result: RedisFleetResult): string[] {
  const ratios = redisFleetRatios(result);
  const times = (value: number | null | undefined) =>
    value === null || value === undefined ? 'n/a' : `${value.toFixed(2)}×`;
  const vsMemory = (server: ServerName, endpoint: Endpoint) =>
    server === 'mock-quiet' ? '1×' : times(ratios[`${endpoint}.${server}/mock-quiet`]);
  const lines = [
    '',
    '## Valkey/Redis fleet',
    '',
    `The mock (CLI, \`--quiet\`) in memory, one instance with \`--redis-url\` on its own redis-server (${result.redisVersion}, no persistence), and two instances with \`--redis-url\` on one other redis-server behind HAProxy ${result.haproxyVersion} (round robin, health-checked), measured in the same run as the Throughput table's requests (creates spread over 1,000 keys, each with a unique \`Idempotency-Key\`; retrieves of one payment): ${result.rounds} interleaved round(s) of ${result.roundSeconds} s after ${result.warmupSeconds} s of warm-up; medians. Every process shares the machine's cores with the load tool.`,
    '',
    '| server | endpoint | requests/s | p50 ms | p99 ms | non-2xx | errors | vs memory | answered correctly |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
    ...result.throughput.map((entry) => {
      const non2xx = entry.rounds.reduce((sum, round) => sum + round.non2xx, 0);
      const errors = entry.rounds.reduce((sum, round) => sum + round.errors, 0);
      return `| ${SERVER_LABELS[entry.server]} | ${entry.endpoint} | ${Math.round(entry.requestsPerSecond).toLocaleString('en-US')} | ${entry.p50Ms.toFixed(2)} | ${entry.p99Ms.toFixed(2)} | ${non2xx} | ${errors} | ${vsMemory(entry.server, entry.endpoint)} | ${entry.correct ? `yes (${entry.probe})` : `**no** (${entry.probe})`} |`;
    }),
    '',
    "The store's work per answered request under that load, from each redis-server's `INFO commandstats` and `INFO stats` read before and after each measured round (warm-up left out; what the idle server did per second — the instances' once-a-second poll, and the health checks' — taken out; requests still in flight when the load tool stops are counted by the server, not the tool, so these lean high by up to the connections over the round's requests). Socket reads are redis-server's `total_reads_processed`: the instances pipeline concurrent requests' commands (ioredis auto-pipelining), so under load one read carries several requests' commands.",
    '',
    '`INFO commandstats` counts the commands the store\'s Lua scripts run as well as those the instances send: "scripts" are the EVAL/EVALSHA calls (each one command on the wire), "commands" everything redis-server ran.',
    '',
    '| server | endpoint | requests | commands / request | scripts / request | socket reads / request | commands per request |',
    '|---|---|---:|---:|---:|---:|---|',
    ...result.work.map(
      (entry) =>
        `| ${entry.server} | ${entry.endpoint} | ${entry.requests.toLocaleString('en-US')} | ${entry.commandsPerRequest.toFixed(2)} | ${scriptsPerRequest(entry.callsPerRequest).toFixed(2)} | ${entry.readsPerRequest.toFixed(2)} | ${describeCalls(entry.callsPerRequest)} |`,
    ),
    '',
    `Round trips: ${result.sequential[0]?.requests ?? 0} requests one at a time to the single instance through HTTP (no concurrent request to pipeline with), so each socket read redis-server makes is one round trip of that request; beside the count of the mock's own test through the whole server (\`packages/mock/src/app/redis-round-trips.test.ts\`: a create with an \`Idempotency-Key\` 2 round trips, a retrieve 1; each request's inspector record, held back after its answer, rides in the next request's first write). Where they differ, the HTTP request makes other store calls than the test's (see the scripts column).`,
    '',
    '| endpoint | requests | not 2xx | commands / request | scripts / request | socket reads (round trips) / request | the test | agrees |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...result.sequential.map(
      (entry) =>
        `| ${entry.endpoint} | ${entry.requests} | ${entry.failures} | ${entry.commandsPerRequest.toFixed(2)} | ${scriptsPerRequest(entry.callsPerRequest).toFixed(2)} | ${entry.readsPerRequest.toFixed(2)} | ${TESTED_ROUND_TRIPS[entry.endpoint]} | ${roundTripsAgree(entry) ? 'yes' : '**no**'} |`,
    ),
    '',
    `Idle: ${result.idle.map((entry) => `${entry.server}'s redis-server ${entry.commandsPerSecond.toFixed(1)} commands/s, ${entry.readsPerSecond.toFixed(1)} reads/s`).join('; ')}.`,
  ];
  return lines;
}
