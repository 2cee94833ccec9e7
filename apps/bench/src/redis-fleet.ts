// The mock on Valkey/Redis: creates and retrieves in memory, on one redis-server, and two instances behind HAProxy (same run), and the store's work per request.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  findProgram,
  type RedisServer,
  startHaproxy,
  startRedisServer,
} from '@payment-service/reliability';
import { sendRequest } from './http-client.js';
import type { LoadResult, LoadSpec, LoadTool } from './load/index.js';
import type { BenchSettings } from './modes.js';
import { CREATE_BODY_TEXT, CREATE_HEADERS, RETRIEVE_HEADERS } from './payment-request.js';
import { counterDelta, type RedisCounters, readRedisCounters } from './redis-info.js';
import { type RunningServer, type ServerName, serverCommand, startServer } from './servers.js';
import {
  type Endpoint,
  measureThroughput,
  probeServer,
  type Target,
  type ThroughputResult,
} from './throughput.js';

/** The store's work per answered request of one server and endpoint, from redis-server's counters. */
export interface StoreWork {
  server: ServerName;
  endpoint: Endpoint;
  /** Requests the load tool counted as answered in the measured rounds (warm-up left out). */
  requests: number;
  /** Commands redis-server ran (INFO commandstats), per request. */
  commandsPerRequest: number;
  /** Client socket reads redis-server made (INFO stats `total_reads_processed`), per request. */
  readsPerRequest: number;
  /** Each command's calls per request, e.g. `{ evalsha: 2 }`. */
  callsPerRequest: Record<string, number>;
}

/** One request at a time against one instance: the reads per request are its round trips. */
export interface SequentialWork {
  endpoint: Endpoint;
  requests: number;
  /** Requests that did not answer 2xx. */
  failures: number;
  commandsPerRequest: number;
  readsPerRequest: number;
  callsPerRequest: Record<string, number>;
}

/** What the Valkey/Redis fleet run measured. */
export interface RedisFleetResult {
  /** `mock-quiet` (memory), `mock-redis-1` and `mock-redis-2` (the balancer), both endpoints. */
  throughput: ThroughputResult[];
  work: StoreWork[];
  sequential: SequentialWork[];
  /** What each redis-server did per second with no requests (polling, health checks); subtracted. */
  idle: Array<{ server: ServerName; commandsPerSecond: number; readsPerSecond: number }>;
  redisVersion: string;
  haproxyVersion: string;
  rounds: number;
  roundSeconds: number;
  warmupSeconds: number;
}

/** The run's outcome: measured, or skipped with the reason (redis-server or haproxy missing). */
export type RedisFleetOutcome = { result: RedisFleetResult } | { skipped: string };

/** Sizes of the fleet run per mode; undefined: not measured (quick). */
export function redisFleetSizes(settings: BenchSettings):
  | {
      rounds: number;
      roundSeconds: number;
      warmupSeconds: number;
      sequential: number;
      idleMs: number;
    }
  | undefined {
  if (settings.mode === 'quick') return undefined;
  return settings.mode === 'smoke'
    ? { rounds: 1, roundSeconds: 1, warmupSeconds: 0, sequential: 20, idleMs: 250 }
    : { rounds: 3, roundSeconds: 2, warmupSeconds: 1, sequential: 300, idleMs: 1000 };
}

/** A load run's counters on the redis-server behind its URL. */
interface CountedRun {
  url: string;
  method: LoadSpec['method'];
  result: LoadResult;
  seconds: number;
  before: RedisCounters;
  after: RedisCounters;
}

/** How long in-flight requests get to finish after the load tool stops, before the counters are read. */
const SETTLE_MS = 100;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Per-second idle rates of one redis-server, per command. */
interface IdleRate {
  calls: Record<string, number>;
  reads: number;
}

async function idleRate(port: number, ms: number): Promise<IdleRate> {
  const before = await readRedisCounters(port);
  const started = performance.now();
  await pause(ms);
  const after = await readRedisCounters(port);
  const seconds = (performance.now() - started) / 1000;
  const delta = counterDelta(before, after);
  const calls: Record<string, number> = {};
  for (const [name, value] of Object.entries(delta.calls)) calls[name] = value / seconds;
  return { calls, reads: delta.reads / seconds };
}

/**
 * The work per request of `requests` requests over `seconds`, with the idle rate taken out
 * (never below 0).
 *
 * @example
 * perRequest(before, after, 1000, 2, idle).commandsPerRequest; // e.g. 3
 */
export function perRequest(
  before: RedisCounters,
  after: RedisCounters,
  requests: number,
  seconds: number,
  idle: IdleRate,
): {
  commandsPerRequest: number;
  readsPerRequest: number;
  callsPerRequest: Record<string, number>;
} {
  const delta = counterDelta(before, after);
  const callsPerRequest: Record<string, number> = {};
  let commands = 0;
  for (const [name, value] of Object.entries(delta.calls)) {
    const work = Math.max(0, value - (idle.calls[name] ?? 0) * seconds);
    commands += work;
    if (work > 0 && requests > 0) callsPerRequest[name] = work / requests;
  }
  const reads = Math.max(0, delta.reads - idle.reads * seconds);
  return {
    commandsPerRequest: requests > 0 ? commands / requests : 0,
    readsPerRequest: requests > 0 ? reads / requests : 0,
    callsPerRequest,
  };
}

/** The load tool, reading the counters of the URL's redis-server around each run. */
function countingTool(
  tool: LoadTool,
  storeOf: (url: string) => number | undefined,
  runs: CountedRun[],
): LoadTool {
  return {
    ...tool,
    async run(spec) {
      const port = storeOf(spec.baseUrl);
      if (port === undefined) return tool.run(spec);
      const before = await readRedisCounters(port);
      const started = performance.now();
      const result = await tool.run(spec);
      await pause(SETTLE_MS);
      const after = await readRedisCounters(port);
      const seconds = (performance.now() - started) / 1000;
      runs.push({ url: spec.baseUrl, method: spec.method, result, seconds, before, after });
      return result;
    },
  };
}

/** Requests one at a time against `target`, reading its redis-server's counters around them. */
async function sequentialWork(
  target: Target,
  port: number,
  endpoint: Endpoint,
  count: number,
  idle: IdleRate,
): Promise<SequentialWork> {
  const { paymentId } = await probeServer(target);
  const before = await readRedisCounters(port);
  const started = performance.now();
  let failures = 0;
  for (let index = 0; index < count; index++) {
    const answer =
      endpoint === 'create'
        ? await sendRequest(`${target.url}/v1/payments`, {
            method: 'POST',
            headers: { ...CREATE_HEADERS, 'idempotency-key': randomUUID() },
            body: CREATE_BODY_TEXT,
          })
        : await sendRequest(`${target.url}/v1/payments/${encodeURIComponent(paymentId)}`, {
            method: 'GET',
            headers: { ...RETRIEVE_HEADERS },
          });
    if (answer.status < 200 || answer.status > 299) failures++;
  }
  const after = await readRedisCounters(port);
  const seconds = (performance.now() - started) / 1000;
  return {
    endpoint,
    requests: count,
    failures,
    ...perRequest(before, after, count, seconds, idle),
  };
}

/**
 * The skip line when redis-server or haproxy is missing (`find` throws for a missing program), or
 * undefined when both are installed.
 *
 * @example
 * missingFleetPrograms(); // undefined on a machine with both
 */
export function missingFleetPrograms(
  find: (program: string) => string = findProgram,
): string | undefined {
  const missing: string[] = [];
  for (const program of ['redis-server', 'haproxy']) {
    try {
      find(program);
    } catch {
      missing.push(program);
    }
  }
  return missing.length === 0
    ? undefined
    : `Valkey/Redis fleet: ${missing.join(' and ')} not installed (Debian's redis-server and haproxy packages; .ci/run installs them).`;
}

/**
 * Measures the mock (`--quiet`) in memory, one instance on a redis-server, and two instances on
 * another redis-server behind HAProxy round robin, interleaved in the same run; reads each
 * redis-server's INFO around every load round (commands and socket reads per answered request),
 * then sends requests one at a time to the single instance (its socket reads per request are the
 * round trips). Skips when redis-server or haproxy is missing. The memory store's server is
 * `memoryServer` when given (the caller's, left running). Stops everything it started, also on
 * failure.
 *
 * @example
 * const outcome = await measureRedisFleet(loadTool, settingsFor('full'), '/tmp/logs', console.error);
 * if ('result' in outcome) outcome.result.work[0].commandsPerRequest; // e.g. 3
 */
export async function measureRedisFleet(
  tool: LoadTool,
  settings: BenchSettings,
  logDir: string,
  log: (line: string) => void,
  memoryServer?: RunningServer,
): Promise<RedisFleetOutcome> {
  const sizes = redisFleetSizes(settings);
  if (sizes === undefined) return { skipped: 'Valkey/Redis fleet: not measured in a quick run.' };
  const missing = missingFleetPrograms();
  if (missing !== undefined) return { skipped: missing };
  const started: Array<{ stop(): Promise<void> }> = [];
  try {
    // Each measured redis store has its own redis-server, so each one's counters are its own.
    const single: RedisServer = await startRedisServer();
    started.push(single);
    const shared: RedisServer = await startRedisServer();
    started.push(shared);
    const memory = memoryServer ?? (await startServer(serverCommand('mock-quiet'), logDir));
    if (memory !== memoryServer) started.push(memory);
    const one = await startServer(serverCommand('mock-redis-1', { redisUrl: single.url }), logDir);
    started.push(one);
    const instances = [];
    for (let index = 0; index < 2; index++) {
      const instance = await startServer(
        serverCommand('mock-redis-2', { redisUrl: shared.url }),
        logDir,
      );
      started.push(instance);
      instances.push(instance);
    }
    const balancer = await startHaproxy(
      instances.map((instance, index) => ({
        name: `mock${index + 1}`,
        port: Number(new URL(instance.url).port),
      })),
    );
    started.push(balancer);
    const two: Target = { name: 'mock-redis-2', url: balancer.url };

    const idle = {
      single: await idleRate(single.port, sizes.idleMs),
      shared: await idleRate(shared.port, sizes.idleMs),
    };
    const ports = new Map([
      [one.url, { port: single.port, idle: idle.single }],
      [two.url, { port: shared.port, idle: idle.shared }],
    ]);
    const runs: CountedRun[] = [];
    const counting = countingTool(tool, (url) => ports.get(url)?.port, runs);
    const roundSettings = {
      ...settings,
      rounds: sizes.rounds,
      roundSeconds: sizes.roundSeconds,
      warmupSeconds: sizes.warmupSeconds,
    };
    const throughput = await measureThroughput([memory, one, two], counting, roundSettings, log);

    const work: StoreWork[] = [];
    for (const target of [one, two]) {
      const store = ports.get(target.url);
      if (store === undefined) continue;
      for (const endpoint of ['create', 'retrieve'] as const) {
        const method = endpoint === 'create' ? 'POST' : 'GET';
        // The last `rounds` runs are the measured ones; the warm-up came before them.
        const measured = runs
          .filter((run) => run.url === target.url && run.method === method)
          .slice(-sizes.rounds);
        const requests = measured.reduce((sum, run) => sum + run.result.requests, 0);
        const sum = { commands: 0, reads: 0, calls: {} as Record<string, number> };
        for (const run of measured) {
          const each = perRequest(run.before, run.after, 1, run.seconds, store.idle);
          sum.commands += each.commandsPerRequest;
          sum.reads += each.readsPerRequest;
          for (const [name, value] of Object.entries(each.callsPerRequest)) {
            sum.calls[name] = (sum.calls[name] ?? 0) + value;
          }
        }
        const callsPerRequest: Record<string, number> = {};
        for (const [name, value] of Object.entries(sum.calls)) {
          callsPerRequest[name] = requests > 0 ? value / requests : 0;
        }
        work.push({
          server: target.name,
          endpoint,
          requests,
          commandsPerRequest: requests > 0 ? sum.commands / requests : 0,
          readsPerRequest: requests > 0 ? sum.reads / requests : 0,
          callsPerRequest,
        });
      }
    }
    const sequential = [
      await sequentialWork(one, single.port, 'create', sizes.sequential, idle.single),
      await sequentialWork(one, single.port, 'retrieve', sizes.sequential, idle.single),
    ];
    for (const entry of [...work, ...sequential]) {
      log(
        `redis: ${'server' in entry ? entry.server : 'one at a time'} ${entry.endpoint}: ${entry.commandsPerRequest.toFixed(2)} commands, ${entry.readsPerRequest.toFixed(2)} reads per request (${entry.requests} requests)`,
      );
    }
    const counters = await readRedisCounters(single.port);
    const perSecond = (rate: IdleRate) =>
      Object.values(rate.calls).reduce((sum, value) => sum + value, 0);
    return {
      result: {
        throughput,
        work,
        sequential,
        idle: [
          {
            server: 'mock-redis-1',
            commandsPerSecond: perSecond(idle.single),
            readsPerSecond: idle.single.reads,
          },
          {
            server: 'mock-redis-2',
            commandsPerSecond: perSecond(idle.shared),
            readsPerSecond: idle.shared.reads,
          },
        ],
        redisVersion: counters.version,
        haproxyVersion: haproxyVersion(),
        rounds: sizes.rounds,
        roundSeconds: sizes.roundSeconds,
        warmupSeconds: sizes.warmupSeconds,
      },
    };
  } finally {
    // The balancer first, then the instances, then the stores.
    await Promise.allSettled(started.reverse().map((part) => part.stop()));
  }
}

function haproxyVersion(): string {
  try {
    const line = execFileSync(findProgram('haproxy'), ['-v'], { encoding: 'utf8' }).split('\n')[0];
    return /HAProxy version (\S+)/.exec(line ?? '')?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
