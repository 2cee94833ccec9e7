// Throughput and latency of create and retrieve on every server: interleaved rounds, medians.
import { randomUUID } from 'node:crypto';
import { parseJson, sendRequest } from './http-client.js';
import type { LoadResult, LoadSpec, LoadTool } from './load/index.js';
import type { BenchSettings } from './modes.js';
import {
  BENCH_KEYS,
  benchApiKey,
  CREATE_BODY_TEXT,
  CREATE_HEADERS,
  createLoadSpec,
  isPaymentBody,
  RETRIEVE_HEADERS,
} from './payment-request.js';
import { alternatingRoundPlan } from './round-plan.js';
import type { RunningServer, ServerName } from './servers.js';
import { median } from './stats.js';

/** What the throughput run needs of a server: its name and URL (a process, or a balancer in front of some). */
export type Target = Pick<RunningServer, 'name' | 'url'>;

/** The two measured endpoints. */
export type Endpoint = 'create' | 'retrieve';

/** Medians over rounds for one server and endpoint, plus every round and the correctness check. */
export interface ThroughputResult {
  server: ServerName;
  endpoint: Endpoint;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The median over rounds of each round's 99.9th percentile. */
  p999Ms: number;
  rounds: LoadResult[];
  /** Every answer of every round was 2xx with no socket errors, and the probe got a payment. */
  correct: boolean;
  /** What the probe request answered, e.g. `201 payment`. */
  probe: string;
}

/**
 * Sends one create and one retrieve and checks each answers 2xx with a payment body. Returns the
 * created payment's id (to retrieve under load) and a short description of each answer.
 *
 * @example
 * const probe = await probeServer(server);
 * probe.ok; // true
 */
export async function probeServer(
  server: Target,
): Promise<{ ok: boolean; paymentId: string; create: string; retrieve: string }> {
  const created = await sendRequest(`${server.url}/v1/payments`, {
    method: 'POST',
    headers: { ...CREATE_HEADERS, 'idempotency-key': randomUUID() },
    body: CREATE_BODY_TEXT,
  });
  const createdBody = parseJson(created.text);
  const createOk = created.status >= 200 && created.status < 300 && isPaymentBody(createdBody);
  const paymentId = isPaymentBody(createdBody) ? createdBody.id : 'pay_missing';
  const retrieved = await sendRequest(
    `${server.url}/v1/payments/${encodeURIComponent(paymentId)}`,
    { method: 'GET', headers: { ...RETRIEVE_HEADERS } },
  );
  const retrievedBody = parseJson(retrieved.text);
  const retrieveOk =
    retrieved.status >= 200 && retrieved.status < 300 && isPaymentBody(retrievedBody);
  const describe = (status: number, ok: boolean) => `${status} ${ok ? 'payment' : 'unexpected'}`;
  return {
    ok: createOk && retrieveOk,
    paymentId,
    create: describe(created.status, createOk),
    retrieve: describe(retrieved.status, retrieveOk),
  };
}

/**
 * Empties the sandbox of every key of the load (`POST /_sandbox/reset`, 10 at a time), so each
 * create round starts from the same state: 1,000 keys' creates fill the mock's memory budget in
 * about 90,000 creates, after which it refuses new work (503 `sandbox_full`) by design. Only our
 * mocks have the control; the other servers are left alone. A run of `requests` requests (the
 * smoke run's) reaches only that many keys, and only those are emptied.
 *
 * @example
 * await resetLoadKeys(mock);
 */
export async function resetLoadKeys(server: Target, requests = 0): Promise<void> {
  if (!server.name.startsWith('mock')) return;
  // The load tools take key `counter % BENCH_KEYS` for their requests 1, 2, …
  const keys = requests > 0 ? Math.min(BENCH_KEYS, requests + 1) : BENCH_KEYS;
  let next = 0;
  const worker = async () => {
    while (next < keys) {
      const key = benchApiKey(next++);
      const answer = await sendRequest(`${server.url}/_sandbox/reset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
      // A round on a sandbox that kept its data would measure refusals (503 sandbox_full).
      if (answer.status < 200 || answer.status > 299) {
        throw new Error(
          `resetting a load key answered ${answer.status}: ${answer.text.slice(0, 200)}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
}

function loadSpec(
  server: Target,
  endpoint: Endpoint,
  paymentId: string,
  settings: BenchSettings,
  durationSeconds: number,
): LoadSpec {
  return endpoint === 'create'
    ? createLoadSpec(server.url, settings.connections, durationSeconds)
    : {
        baseUrl: server.url,
        method: 'GET',
        path: `/v1/payments/${encodeURIComponent(paymentId)}`,
        headers: RETRIEVE_HEADERS,
        uniqueIdempotencyKey: false,
        connections: settings.connections,
        durationSeconds,
      };
}

/**
 * Measures every server on both endpoints. Rounds are interleaved (round 1 of every server, then
 * round 2, …) so drifting background load falls on all servers alike, the servers as listed in odd
 * rounds and in reverse in even ones (`alternatingRoundPlan`); each server is warmed up first.
 * Reports medians over rounds.
 *
 * @example
 * const results = await measureThroughput([floor, mock], loadTool, settingsFor('full'), console.error);
 */
export async function measureThroughput(
  servers: Target[],
  tool: LoadTool,
  settings: BenchSettings,
  log: (line: string) => void,
): Promise<ThroughputResult[]> {
  const results: ThroughputResult[] = [];
  for (const endpoint of ['create', 'retrieve'] as const) {
    const probes = new Map<ServerName, Awaited<ReturnType<typeof probeServer>>>();
    for (const server of servers) {
      const probe = await probeServer(server);
      probes.set(server.name, probe);
      if (settings.warmupSeconds > 0) {
        await tool.run(
          loadSpec(server, endpoint, probe.paymentId, settings, settings.warmupSeconds),
        );
      }
    }
    const rounds = new Map<ServerName, LoadResult[]>(servers.map((server) => [server.name, []]));
    // Odd rounds take the servers as listed, even rounds in reverse: no server always runs
    // right after the same neighbour has loaded the machine.
    for (const planned of alternatingRoundPlan(servers.length, settings.rounds)) {
      const round = planned.round;
      for (const index of planned.builds) {
        const server = servers[index] as Target;
        const probe = probes.get(server.name);
        const spec = loadSpec(
          server,
          endpoint,
          probe?.paymentId ?? '',
          settings,
          settings.roundSeconds,
        );
        if (endpoint === 'create') await resetLoadKeys(server, settings.roundRequests);
        const result = await tool.run(spec);
        rounds.get(server.name)?.push(result);
        log(
          `${endpoint} ${server.name} round ${round}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, p99.9 ${result.p999Ms.toFixed(2)} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
        );
      }
    }
    for (const server of servers) {
      const serverRounds = rounds.get(server.name) ?? [];
      const probe = probes.get(server.name);
      results.push({
        server: server.name,
        endpoint,
        requestsPerSecond: median(serverRounds.map((round) => round.requestsPerSecond)),
        p50Ms: median(serverRounds.map((round) => round.p50Ms)),
        p99Ms: median(serverRounds.map((round) => round.p99Ms)),
        p999Ms: median(serverRounds.map((round) => round.p999Ms)),
        rounds: serverRounds,
        correct:
          (probe?.ok ?? false) &&
          serverRounds.every(
            (round) => round.non2xx === 0 && round.errors === 0 && round.requests > 0,
          ),
        probe: endpoint === 'create' ? (probe?.create ?? 'none') : (probe?.retrieve ?? 'none'),
      });
    }
  }
  return results;
}
