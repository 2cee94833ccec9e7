// The report: ratios and targets computed from the measurements, as JSON and as BENCHMARKS.md.

import type { AttackMemoryResult } from './attack-memory.js';
import { attackMemoryTarget, renderAttackMemory } from './attack-memory-report.js';
import { BASELINE_MOCK_COMMIT, BEFORE_SEAM_MOCK_COMMIT } from './baseline-mock.js';
import type { ColdStartResult } from './cold-start.js';
import type { DataDirResult } from './data-dir.js';
import { dataDirRatios, dataDirTargets, renderDataDir } from './data-dir-report.js';
import type { HotPathFix } from './fixes.js';
import type { MachineInfo, Versions } from './machine.js';
import type { MemoryResult } from './memory.js';
import type { BenchSettings } from './modes.js';
import type { ProfileResult } from './profile.js';
import type { ProxyOverheadResult } from './proxy-overhead.js';
import { proxyOverheadTargets, renderProxyOverhead } from './proxy-overhead-report.js';
import type { RedisFleetResult } from './redis-fleet.js';
import { redisFleetRatios, renderRedisFleet } from './redis-fleet-report.js';
import type { SdkOverheadResult } from './sdk-overhead.js';
import { SERVER_LABELS, type ServerName } from './servers.js';
import type { StagesResult } from './stages.js';
import { renderStages } from './stages-report.js';
import { ratio, round } from './stats.js';
import type { Endpoint, ThroughputResult } from './throughput.js';

/** Everything one run measured. */
export interface Measurements {
  machine: MachineInfo;
  versions: Versions;
  settings: BenchSettings;
  throughput: ThroughputResult[];
  coldStart: ColdStartResult[];
  sdkOverhead: SdkOverheadResult[];
  /** What the contract proxy adds per exchange (empty in a quick run). */
  proxyOverhead: ProxyOverheadResult[];
  /** Absent from a quick run. */
  memory?: MemoryResult;
  /** Absent from a quick run. */
  dataDir?: DataDirResult;
  /** The mock on Valkey/Redis beside the memory store; absent from a quick run or when skipped. */
  redisFleet?: RedisFleetResult;
  /** The worst case of each issue-10 attack, replayed on a fresh CLI. */
  attackMemory: AttackMemoryResult[];
  profile?: ProfileResult;
  /** Server CPU per request by stage, allocations and GC, for the build before and this one. */
  stages?: StagesResult;
  fixes: HotPathFix[];
  skipped: string[];
  loadAverageEnd: number;
  durationSeconds: number;
}

/** One target of the issue and whether this run met it (null when it could not be measured). */
export interface TargetCheck {
  name: string;
  target: string;
  value: string;
  met: boolean | null;
}

/** The machine-readable report (BENCHMARKS.json / results/latest.json). */
export interface BenchReport extends Measurements {
  schemaVersion: 1;
  generatedAt: string;
  ratios: Record<string, number | null>;
  targets: TargetCheck[];
}

/**
 * A server's result for an endpoint, only when every answer of every round was right (2xx, no
 * error, the probe's answer): a refusal is never measured as speed, so such a server has no ratio.
 */
const findThroughput = (
  results: ThroughputResult[],
  server: ServerName,
  endpoint: Endpoint,
): ThroughputResult | undefined =>
  results.find(
    (result) => result.server === server && result.endpoint === endpoint && result.correct,
  );

/**
 * Computes the ratios (each against the baseline measured in the same run) and the targets.
 *
 * @example
 * const report = buildReport(measurements);
 * report.ratios['create.mock/floor']; // e.g. 0.41
 */
export function buildReport(measurements: Measurements): BenchReport {
  const ratios: Record<string, number | null> = {};
  for (const endpoint of ['create', 'retrieve'] as const) {
    const rate = (server: ServerName) =>
      findThroughput(measurements.throughput, server, endpoint)?.requestsPerSecond;
    ratios[`${endpoint}.hono-floor/floor`] = ratio(rate('hono-floor'), rate('floor'));
    for (const server of ['mock', 'mock-quiet'] as const) {
      ratios[`${endpoint}.${server}/floor`] = ratio(rate(server), rate('floor'));
      ratios[`${endpoint}.${server}/hono-floor`] = ratio(rate(server), rate('hono-floor'));
      ratios[`${endpoint}.${server}/prism`] = ratio(rate(server), rate('prism'));
    }
    ratios[`${endpoint}.mock/mock-before`] = ratio(rate('mock'), rate('mock-before'));
    ratios[`${endpoint}.mock/mock-before-seam`] = ratio(rate('mock'), rate('mock-before-seam'));
    if (rate('mock-previous') !== undefined) {
      ratios[`${endpoint}.mock/mock-previous`] = ratio(rate('mock'), rate('mock-previous'));
      ratios[`${endpoint}.mock-previous/hono-floor`] = ratio(
        rate('mock-previous'),
        rate('hono-floor'),
      );
    }
  }
  const cold = (server: ServerName) =>
    measurements.coldStart.find((result) => result.server === server)?.medianMs;
  const coldMock = cold('mock');
  const coldFloor = cold('floor');
  ratios['coldStart.mock/floor'] = ratio(coldMock, coldFloor);
  ratios['coldStart.mock/hono-floor'] = ratio(coldMock, cold('hono-floor'));
  ratios['coldStart.mock/mock-before'] = ratio(coldMock, cold('mock-before'));
  ratios['coldStart.prism/mock'] = ratio(cold('prism'), coldMock);
  for (const result of measurements.sdkOverhead) {
    ratios[`sdk.${result.server}.c${result.concurrency}.sdk/fetch`] = ratio(
      result.sdkRequestsPerSecond,
      result.fetchRequestsPerSecond,
    );
  }
  if (measurements.memory !== undefined) {
    ratios['memory.second/first'] = measurements.memory.growth;
  }
  if (measurements.dataDir !== undefined)
    Object.assign(ratios, dataDirRatios(measurements.dataDir));
  if (measurements.redisFleet !== undefined)
    Object.assign(ratios, redisFleetRatios(measurements.redisFleet));
  for (const endpoint of ['create', 'retrieve'] as const) {
    const mock = findThroughput(measurements.throughput, 'mock', endpoint);
    const honoFloor = findThroughput(measurements.throughput, 'hono-floor', endpoint);
    ratios[`${endpoint}.p99.mock/hono-floor`] = ratio(mock?.p99Ms, honoFloor?.p99Ms);
    ratios[`${endpoint}.p99.9.mock/hono-floor`] = ratio(mock?.p999Ms, honoFloor?.p999Ms);
  }

  const mockCreate = findThroughput(measurements.throughput, 'mock', 'create');
  const toFloor = ratios['create.mock/floor'] ?? null;
  const toPrism = ratios['create.mock/prism'] ?? null;
  const worstSdk = Math.max(
    ...measurements.sdkOverhead
      .filter((result) => result.server === 'mock-quiet')
      .map((result) => result.overhead),
  );
  const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
  const memory = measurements.memory;
  const targets: TargetCheck[] = [
    ...floorTargets(measurements, ratios),
    {
      name: 'create throughput vs raw floor (CLI default logging)',
      target: '≥ 55 %',
      value: toFloor === null ? 'n/a' : percent(toFloor),
      met: toFloor === null ? null : toFloor >= 0.55,
    },
    ...previousBuildTargets(ratios),
    {
      name: 'create throughput vs Prism',
      target: '≥ 10×',
      value: toPrism === null ? 'n/a (Prism skipped)' : `${toPrism.toFixed(1)}×`,
      met: toPrism === null ? null : toPrism >= 10,
    },
    {
      name: `create p99 at ${measurements.settings.connections} connections`,
      target: '< 10 ms',
      value: mockCreate === undefined ? 'n/a' : `${mockCreate.p99Ms.toFixed(2)} ms`,
      met: mockCreate === undefined ? null : mockCreate.p99Ms < 10,
    },
    {
      name: 'cold start (process start → first create)',
      target: '≤ 200 ms',
      value:
        coldMock === undefined
          ? 'n/a'
          : `${Math.round(coldMock)} ms${coldFloor === undefined ? '' : ` (raw node:http floor: ${Math.round(coldFloor)} ms)`}`,
      met: coldMock === undefined ? null : coldMock <= 200,
    },
    {
      name: 'SDK overhead vs bare fetch (worst of concurrency 1 and 10, against the mock)',
      target: '≤ 15 %',
      value: Number.isFinite(worstSdk) ? percent(worstSdk) : 'n/a',
      met: Number.isFinite(worstSdk) ? worstSdk <= 0.15 : null,
    },
    {
      name: 'memory plateaus (RSS after 2nd phase / after 1st)',
      target: '≤ 1.15',
      value: memory === undefined ? 'n/a (quick run)' : memory.growth.toFixed(3),
      met: memory === undefined ? null : memory.plateaus,
    },
    attackMemoryTarget(measurements.attackMemory),
    ...proxyOverheadTargets(measurements.proxyOverhead),
    ...dataDirTargets(measurements.dataDir, measurements.memory),
  ];
  return {
    schemaVersion: 1,
    generatedAt: new Date().toISOString(),
    ...measurements,
    ratios,
    targets,
  };
}

/**
 * No regression against the previous builds (issue 41): create and retrieve, the mock (CLI,
 * default settings) over the mock before the redesign (d7ac2fd) and before the store seam
 * (9bf239d), each measured in the same interleaved rounds.
 *
 * @example
 * previousBuildTargets({ 'retrieve.mock/mock-before': 1.2 })[0].met; // true
 */
export function previousBuildTargets(ratios: Record<string, number | null>): TargetCheck[] {
  const builds = [
    { server: 'mock-before', label: `the mock before the redesign (${BASELINE_MOCK_COMMIT}` },
    {
      server: 'mock-before-seam',
      label: `the mock before the store seam (${BEFORE_SEAM_MOCK_COMMIT}`,
    },
  ] as const;
  return builds.flatMap(({ server, label }) =>
    (['retrieve', 'create'] as const).map((endpoint) => {
      const value = ratios[`${endpoint}.mock/${server}`] ?? null;
      return {
        name: `${endpoint} throughput vs ${label}, same run): no regression`,
        target: '≥ 1×',
        value: value === null ? 'n/a (not built)' : `${value.toFixed(2)}×`,
        met: value === null ? null : value >= 1,
      };
    }),
  );
}

/** The longest full `npm run bench` the team accepts, in seconds. */
export const FULL_RUN_LIMIT_SECONDS = 360;

/**
 * Issue 24's targets: the mock against the Hono floor measured in the same run (the framework's
 * own cost is not the mock's), and the length of a full run.
 *
 * @example
 * floorTargets(measurements, ratios)[0].target; // '≥ 0.60×'
 */
export function floorTargets(
  measurements: Measurements,
  ratios: Record<string, number | null>,
): TargetCheck[] {
  const times = (value: number | null | undefined, digits = 2) =>
    value === null || value === undefined ? 'n/a' : `${value.toFixed(digits)}×`;
  const atLeast = (value: number | null | undefined, limit: number) =>
    value === null || value === undefined ? null : value >= limit;
  const atMost = (value: number | null | undefined, limit: number) =>
    value === null || value === undefined ? null : value <= limit;
  const create = ratios['create.mock/hono-floor'];
  const retrieve = ratios['retrieve.mock/hono-floor'];
  const p99 = ratios['create.p99.mock/hono-floor'];
  const cold = ratios['coldStart.mock/hono-floor'];
  const mockCreate = findThroughput(measurements.throughput, 'mock', 'create');
  const floorCreate = findThroughput(measurements.throughput, 'hono-floor', 'create');
  const latencies =
    mockCreate === undefined || floorCreate === undefined
      ? ''
      : ` (p99 ${formatMs(mockCreate.p99Ms)} vs ${formatMs(floorCreate.p99Ms)} ms; p99.9 ${formatMs(mockCreate.p999Ms)} vs ${formatMs(floorCreate.p999Ms)} ms)`;
  const coldMs = (server: ServerName) =>
    measurements.coldStart.find((result) => result.server === server)?.medianMs;
  const coldMock = coldMs('mock');
  const coldFloor = coldMs('hono-floor');
  const full = measurements.settings.mode === 'full';
  return [
    {
      name: 'create throughput, mock / Hono floor (same run, CLI default logging)',
      target: '≥ 0.60×',
      value: times(create),
      met: atLeast(create, 0.6),
    },
    {
      name: 'retrieve throughput, mock / Hono floor (same run)',
      target: '≥ 0.80×',
      value: times(retrieve),
      met: atLeast(retrieve, 0.8),
    },
    {
      name: 'create p99, mock / Hono floor (same run)',
      target: '≤ 2×',
      value: `${times(p99)}${latencies}`,
      met: atMost(p99, 2),
    },
    {
      name: 'cold start to the first 201 through the bin, mock / Hono floor',
      target: '≤ 1.25×',
      value:
        coldMock === undefined || coldFloor === undefined
          ? 'n/a'
          : `${times(cold)} (${Math.round(coldMock)} vs ${Math.round(coldFloor)} ms)`,
      met: atMost(cold, 1.25),
    },
    {
      name: 'full `npm run bench` (measurements, without install and build)',
      target: `≤ ${FULL_RUN_LIMIT_SECONDS / 60} min`,
      value: full
        ? `${Math.round(measurements.durationSeconds)} s`
        : `n/a (${measurements.settings.mode} run)`,
      met: full ? measurements.durationSeconds <= FULL_RUN_LIMIT_SECONDS : null,
    },
  ];
}

const formatRate = (value: number) => Math.round(value).toLocaleString('en-US');
const formatMs = (value: number) => value.toFixed(2);
const formatRatio = (value: number | null | undefined, suffix = '×') =>
  value === null || value === undefined ? 'n/a' : `${round(value, 3)}${suffix}`;
const verdict = (met: boolean | null) => (met === null ? 'not measured' : met ? 'met' : 'missed');

/**
 * Renders the report as the Markdown of BENCHMARKS.md.
 *
 * @example
 * writeFileSync('BENCHMARKS.md', renderMarkdown(buildReport(measurements)));
 */
export function renderMarkdown(report: BenchReport): string {
  const { machine, versions, settings } = report;
  const out: string[] = [];
  out.push(
    '# Benchmarks',
    '',
    `Generated by \`npm run bench\` (\`apps/bench\`, ${settings.mode} mode) on ${report.generatedAt}, in ${Math.round(report.durationSeconds)} s. Do not edit by hand: run it again.`,
    '',
    'Every number is measured in the same run on the same machine, and every comparison is a ratio',
    'against a baseline measured beside it: the absolute numbers move with the machine and its load,',
    'the ratios much less.',
    '',
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${machine.cpuModel}, ${machine.cores} cores |`,
    `| memory | ${machine.memoryGiB} GiB |`,
    `| Node | ${machine.node} (${machine.platform}) |`,
    `| load average (1 min) | ${machine.loadAverageStart.toFixed(2)} at start, ${report.loadAverageEnd.toFixed(2)} at end |`,
    `| versions | hono ${versions.hono}, @hono/node-server ${versions.nodeServer}, Prism ${versions.prism}, ${versions.loadTool}, autocannon ${versions.autocannon} |`,
    '',
    `The load generator (${versions.loadTool.split(' ')[0]}, one thread) and the server share the machine's ${machine.cores} cores, so`,
    'each server gets at most about one core; other work on the machine during the run shows up as noise.',
    '',
    '## Throughput and latency',
    '',
    `${settings.connections} connections, ${settings.rounds} round(s) of ${settings.roundSeconds} s per server and endpoint (after ${settings.warmupSeconds} s of warm-up), interleaved (the servers in the order listed in odd rounds, in reverse in even ones); medians.`,
    'Create is `POST /v1/payments` with a JSON body, a unique `Idempotency-Key` per request and the bearer key of one of 1,000 keys in turn;',
    'retrieve is `GET /v1/payments/{id}` of one payment. Our mock goes through its whole pipeline (auth, validation,',
    'idempotency, store, events); the floor parses the body and answers the payment JSON; the Hono floor gives the',
    "same answers from a bare Hono app on @hono/node-server (the mock's framework without the mock's work: the gap",
    "between it and the mock is the mock's own cost); the mock before the redesign is the CLI built from",
    `${BASELINE_MOCK_COMMIT} (issue 9's baseline: a regression shows as a ratio below 1), the mock before the store seam`,
    `the CLI built from ${BEFORE_SEAM_MOCK_COMMIT} (issue 41's: before the data directory and the Redis store); Prism mocks \`spec/openapi.yaml\`.`,
    '',
    '| server | endpoint | requests/s | p50 ms | p99 ms | p99.9 ms | vs floor | vs Hono floor | answered correctly |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const result of report.throughput) {
    const floor = findThroughput(report.throughput, 'floor', result.endpoint);
    const honoFloor = findThroughput(report.throughput, 'hono-floor', result.endpoint);
    out.push(
      `| ${SERVER_LABELS[result.server]} | ${result.endpoint} | ${formatRate(result.requestsPerSecond)} | ${formatMs(result.p50Ms)} | ${formatMs(result.p99Ms)} | ${formatMs(result.p999Ms)} | ${formatRatio(ratio(result.requestsPerSecond, floor?.requestsPerSecond))} | ${formatRatio(ratio(result.requestsPerSecond, honoFloor?.requestsPerSecond))} | ${result.correct ? `yes (${result.probe})` : `**no** (${result.probe})`} |`,
    );
  }
  out.push('', '## Ratios', '', '| ratio | value |', '|---|---:|');
  for (const [name, value] of Object.entries(report.ratios)) {
    out.push(`| \`${name}\` | ${formatRatio(value)} |`);
  }
  out.push(
    '',
    '## Cold start',
    '',
    `Process start to the first successful create (polling every ~2 ms), ${settings.coldStartRuns} runs each, interleaved; medians. The raw floor is node starting an http server: what is above it is what a server adds to node's own start on this machine.`,
    '',
    '| server | median ms | above the raw floor, ms | runs ms |',
    '|---|---:|---:|---|',
  );
  const coldFloor = report.coldStart.find((result) => result.server === 'floor')?.medianMs;
  for (const result of report.coldStart) {
    const above = coldFloor === undefined ? 'n/a' : String(Math.round(result.medianMs - coldFloor));
    out.push(
      `| ${SERVER_LABELS[result.server]} | ${Math.round(result.medianMs)} | ${above} | ${result.runsMs.map((ms) => Math.round(ms)).join(', ')} |`,
    );
  }
  out.push(
    '',
    '## SDK overhead',
    '',
    `\`client.payments.create\` against bare \`fetch\` with the same request (bearer key, JSON body, a UUID \`Idempotency-Key\`), to the same server, from the same process; ${settings.sdkRounds} round(s) of ${settings.sdkRoundSeconds} s each, alternating the order; medians. Overhead = fetch rate / SDK rate − 1. The SDK refuses redirects (\`redirect: 'error'\`, no window), which lets Node's fetch skip copying each request and teeing its body; the "same init" column is bare fetch given that init too, so "SDK's own cost" is what openapi-fetch, the retry loop and the per-attempt timeout signal cost.`,
    '',
    '| server | concurrency | fetch req/s | fetch, same init req/s | SDK req/s | overhead vs fetch | SDK’s own cost |',
    '|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const result of report.sdkOverhead) {
    out.push(
      `| ${SERVER_LABELS[result.server]} | ${result.concurrency} | ${formatRate(result.fetchRequestsPerSecond)} | ${formatRate(result.sameInitFetchRequestsPerSecond)} | ${formatRate(result.sdkRequestsPerSecond)} | ${(result.overhead * 100).toFixed(1)} % | ${(result.machineryOverhead * 100).toFixed(1)} % |`,
    );
  }
  out.push(...renderProxyOverhead(report.proxyOverhead));
  const memory = report.memory;
  if (memory !== undefined) {
    out.push(
      '',
      '## Memory',
      '',
      `A fresh mock (CLI, \`--quiet\`); ${memory.createsPerPhase.toLocaleString('en-US')} creates spread over ${memory.keys.toLocaleString('en-US')} keys (each with a unique \`Idempotency-Key\`), then as many again. The mock keeps at most 10,000 payments per key and 100,000 in all, and caps idempotency records and accounts likewise.`,
      '',
      '| RSS at start | after 1st phase | after 2nd phase | 2nd / 1st |',
      '|---:|---:|---:|---:|',
      `| ${memory.rssStartMiB.toFixed(1)} MiB | ${memory.rssAfterFirstMiB.toFixed(1)} MiB | ${memory.rssAfterSecondMiB.toFixed(1)} MiB | ${memory.growth.toFixed(3)} (${memory.plateaus ? 'plateau' : '**grows**'}) |`,
    );
  }
  if (report.dataDir !== undefined) out.push(...renderDataDir(report.dataDir));
  if (report.redisFleet !== undefined) out.push(...renderRedisFleet(report.redisFleet));
  if (report.attackMemory.length > 0) out.push(...renderAttackMemory(report.attackMemory));
  out.push(
    '',
    '## Targets',
    '',
    'A benchmark, not a CI gate.',
    '',
    '| target | wanted | this run | |',
    '|---|---|---|---|',
  );
  for (const target of report.targets) {
    out.push(`| ${target.name} | ${target.target} | ${target.value} | ${verdict(target.met)} |`);
  }
  if (report.profile !== undefined) {
    const profile = report.profile;
    out.push(
      '',
      '## Where the create path spends its time',
      '',
      `\`node --cpu-prof\` on the CLI (${SERVER_LABELS[profile.server]}) under ${profile.seconds} s of create load (${formatRate(profile.requestsPerSecond)} req/s while profiled; ${profile.idlePercent.toFixed(1)} % idle). Self time as a share of busy samples.`,
      '',
      '| package | self % |',
      '|---|---:|',
      ...profile.byPackage.map((row) => `| ${row.name} | ${row.percent.toFixed(1)} |`),
      '',
      '| function | self % |',
      '|---|---:|',
      ...profile.topFunctions.map((row) => `| \`${row.name}\` | ${row.percent.toFixed(1)} |`),
    );
  }
  if (report.stages !== undefined) out.push(...renderStages(report.stages));
  out.push('', '## Changes made after profiling', '');
  if (report.fixes.length === 0) out.push('None.');
  else {
    out.push('| commit | change | before | after |', '|---|---|---|---|');
    for (const fix of report.fixes) {
      out.push(`| ${fix.commit} | ${fix.change} | ${fix.before} | ${fix.after} |`);
    }
  }
  if (report.skipped.length > 0) {
    out.push('', '## Skipped', '', ...report.skipped.map((line) => `- ${line}`));
  }
  out.push('');
  return out.join('\n');
}
