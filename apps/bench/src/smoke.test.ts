import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tiedToSpawner } from '../../../test-support/child-lifetime.js';
import { temporaryDirectory } from '../../../test-support/temporary-directory.js';
import { BENCH_DIR } from './paths.js';
import type { BenchReport } from './report.js';
import { OTHER_ROWS, STAGE_LABELS, STAGES } from './stage-map.js';

// Runs the real command in smoke mode (about a second per measurement) and checks the report's
// structure and that every measured server answered correctly. Never timing thresholds.
const outDir = temporaryDirectory('bench-smoke-test-');
let report: BenchReport;
let markdown: string;

beforeAll(async () => {
  await new Promise<void>((resolve, reject) => {
    // Tied to the test: killed with it (SIGKILL, no hook), the run gets SIGTERM and stops its servers.
    execFile(
      ...tiedToSpawner(
        process.execPath,
        [join(BENCH_DIR, 'dist/main.js'), '--smoke', '--out-dir', outDir],
        'SIGTERM',
      ),
      { timeout: 400_000 },
      (error, _stdout, stderr) =>
        error ? reject(new Error(`smoke run failed: ${error.message}\n${stderr}`)) : resolve(),
    );
  });
  report = JSON.parse(readFileSync(join(outDir, 'BENCHMARKS.json'), 'utf8')) as BenchReport;
  markdown = readFileSync(join(outDir, 'BENCHMARKS.md'), 'utf8');
});

const measured = (server: string) => report.throughput.some((result) => result.server === server);

describe('bench smoke run', () => {
  it('describes the machine and the versions', () => {
    expect(report.schemaVersion).toBe(1);
    expect(report.settings.mode).toBe('smoke');
    expect(report.machine.cores).toBeGreaterThan(0);
    expect(report.machine.node).toBe(process.version);
    expect(report.versions.hono).toMatch(/^4\./);
    expect(report.versions.nodeServer).toMatch(/^2\./);
    expect(report.versions.loadTool).toMatch(/^autocannon .*, 100 requests a run$/);
    expect(report.settings.roundRequests).toBe(100);
  });

  it('measured create and retrieve on every server, each answering correctly', () => {
    const servers = [
      'floor',
      'hono-floor',
      'mock',
      'mock-quiet',
      ...(report.versions.prism.startsWith('5.') ? ['prism'] : []),
      ...(measured('mock-before') ? ['mock-before'] : []),
      ...(measured('mock-before-seam') ? ['mock-before-seam'] : []),
    ];
    // Smoke mode builds the previous builds (d7ac2fd, 9bf239d) only with BENCH_BASELINE=1, and
    // says so.
    if (!measured('mock-before')) {
      expect(report.skipped.join('\n')).toContain('The mock before the redesign');
    }
    if (!measured('mock-before-seam')) {
      expect(report.skipped.join('\n')).toContain('The mock before the store seam');
    }
    for (const endpoint of ['create', 'retrieve']) {
      for (const server of servers) {
        const result = report.throughput.find(
          (r) => r.server === server && r.endpoint === endpoint,
        );
        expect(result, `${server} ${endpoint}`).toBeDefined();
        expect(result?.correct, `${server} ${endpoint}: ${result?.probe}`).toBe(true);
        expect(result?.requestsPerSecond).toBeGreaterThan(0);
        expect(result?.rounds.length).toBe(report.settings.rounds);
        // Smoke runs are counted: each round made exactly the requests it was given.
        expect(result?.rounds.map((round) => round.requests)).toEqual(
          result?.rounds.map(() => report.settings.roundRequests),
        );
      }
    }
    expect(
      report.throughput.find((r) => r.server === 'mock' && r.endpoint === 'create')?.probe,
    ).toBe('201 payment');
  });

  it('measured cold start, SDK overhead, memory and a profile', () => {
    // The floors start beside the mock, so the report can say what is node's own start.
    for (const server of ['floor', 'hono-floor', 'mock'] as const) {
      const result = report.coldStart.find((entry) => entry.server === server);
      expect(result?.runsMs, server).toHaveLength(report.settings.coldStartRuns);
      expect(result?.medianMs, server).toBeGreaterThan(0);
    }
    expect(report.ratios['coldStart.mock/floor']).toBeGreaterThan(0);
    expect(report.sdkOverhead.length).toBeGreaterThanOrEqual(2);
    for (const result of report.sdkOverhead) expect(result.correct).toBe(true);
    // The proxy's cost on create and retrieve, every exchange answered 2xx on both sides.
    expect(report.proxyOverhead.map((result) => `${result.proxy} ${result.endpoint}`)).toEqual([
      'contract-proxy create',
      'contract-proxy retrieve',
      'forward-floor create',
      'forward-floor retrieve',
    ]);
    for (const result of report.proxyOverhead) {
      expect(result.non2xx, result.endpoint).toEqual({ direct: 0, proxied: 0 });
      expect(result.proxied.p50, result.endpoint).toBeGreaterThan(0);
    }
    expect(
      report.targets.filter((target) => target.name.startsWith('contract proxy')),
    ).toHaveLength(2);
    expect(report.memory?.correct).toBe(true);
    expect(report.memory?.rssAfterSecondMiB).toBeGreaterThan(0);
    expect(report.profile?.topFunctions.length).toBeGreaterThan(0);
  });

  it('replayed every attack on its own CLI and read its peak RSS', () => {
    expect(report.attackMemory.map((row) => row.attack)).toHaveLength(12);
    for (const row of report.attackMemory) {
      expect(row.rssStartMiB, row.attack).toBeGreaterThan(0);
      expect(row.alive, row.attack).toBe(true);
      if (row.alive) expect(row.peakRssMiB, row.attack).toBeGreaterThanOrEqual(row.rssStartMiB);
      expect(row.outcome, row.attack).not.toBe('');
    }
    // Round two reads a neighbour's latency before and during its attacks.
    const withNeighbour = report.attackMemory.filter((row) => row.neighbour !== undefined);
    expect(withNeighbour.map((row) => row.attack)).toEqual([
      'error-list amplification',
      'readers that never read',
      'latency lock',
    ]);
    for (const row of withNeighbour) {
      expect(row.neighbour?.quietMs, row.attack).toBeGreaterThan(0);
      expect(row.neighbour?.attackMs, row.attack).toBeGreaterThan(0);
    }
  });

  it('measured the data directory: both stores answering correctly, a fill with no refusal, restarts', () => {
    const dataDir = report.dataDir;
    expect(
      dataDir?.throughput.map((result) => `${result.server} ${result.endpoint} ${result.correct}`),
    ).toEqual([
      'mock-quiet create true',
      'mock-data-dir create true',
      'mock-quiet retrieve true',
      'mock-data-dir retrieve true',
    ]);
    expect(dataDir?.fillFailures).toBe(0);
    expect(dataDir?.directoryBytes).toBeGreaterThan(dataDir?.payments ?? Infinity);
    expect(dataDir?.startupRunsMs).toHaveLength(2);
    expect(report.ratios['create.mock-data-dir/mock-quiet']).toBeGreaterThan(0);
  });

  it('measured the Valkey/Redis fleet beside the memory store, every server answering correctly, or said why not', () => {
    const fleet = report.redisFleet;
    if (fleet === undefined) {
      // Only a machine without redis-server or haproxy skips it (.ci/run installs both).
      expect(report.skipped.join('\n')).toMatch(/Valkey\/Redis fleet: .* not installed/);
      return;
    }
    expect(
      fleet.throughput.map((result) => `${result.server} ${result.endpoint} ${result.correct}`),
    ).toEqual([
      'mock-quiet create true',
      'mock-redis-1 create true',
      'mock-redis-2 create true',
      'mock-quiet retrieve true',
      'mock-redis-1 retrieve true',
      'mock-redis-2 retrieve true',
    ]);
    for (const result of fleet.throughput) {
      expect(result.requestsPerSecond, `${result.server} ${result.endpoint}`).toBeGreaterThan(0);
      expect(result.rounds.map((round) => round.non2xx + round.errors)).toEqual(
        result.rounds.map(() => 0),
      );
    }
    expect(fleet.work.map((work) => `${work.server} ${work.endpoint}`)).toEqual([
      'mock-redis-1 create',
      'mock-redis-1 retrieve',
      'mock-redis-2 create',
      'mock-redis-2 retrieve',
    ]);
    for (const work of [...fleet.work, ...fleet.sequential]) {
      expect(work.requests, work.endpoint).toBeGreaterThan(0);
      expect(work.commandsPerRequest, work.endpoint).toBeGreaterThan(0);
      expect(work.readsPerRequest, work.endpoint).toBeGreaterThan(0);
    }
    expect(fleet.sequential.map((work) => `${work.endpoint} ${work.failures}`)).toEqual([
      'create 0',
      'retrieve 0',
    ]);
    for (const endpoint of ['create', 'retrieve']) {
      for (const pair of [
        'mock-redis-1/mock-quiet',
        'mock-redis-2/mock-quiet',
        'mock-redis-2/mock-redis-1',
      ]) {
        expect(report.ratios[`${endpoint}.${pair}`], `${endpoint}.${pair}`).toBeGreaterThan(0);
      }
    }
    expect(markdown).toContain('## Valkey/Redis fleet');
  });

  it('split the server CPU per request by stage, with allocations and GC, and no refusal', () => {
    const stages = report.stages;
    const current = stages?.results.filter((result) => result.build === 'current') ?? [];
    expect(current.map((result) => result.endpoint)).toEqual(['create', 'retrieve']);
    for (const result of stages?.results ?? []) {
      const name = `${result.label} ${result.endpoint}`;
      // Counted inside the server: every request of every window answered, every answer 2xx.
      expect(result.requests, name).toBe(
        (stages?.sizes.windowRequests ?? 0) * (stages?.sizes.rounds ?? 0),
      );
      expect(result.profiledRequests, name).toBe(result.requests);
      expect([result.non2xxServer, result.non2xxClient, result.loadErrors], name).toEqual([
        0, 0, 0,
      ]);
      expect(result.cpuUs, name).toBeGreaterThan(0);
      expect(result.mainThreadUs ?? result.cpuUs, name).toBeGreaterThan(0);
      expect(result.busySamples, name).toBeGreaterThan(0);
      expect(result.allocatedBytes, name).toBeGreaterThan(0);
      expect(result.sampledBytes, name).toBeGreaterThan(0);
      expect(result.objects, name).toBeGreaterThan(0);
      for (const row of [...STAGES, ...OTHER_ROWS]) {
        expect(Number.isFinite(result.stageUs[row]), `${name} ${row}`).toBe(true);
      }
      // The map placed every sample in the mock's code.
      expect(result.unplaced, name).toEqual({});
      expect(result.samples.unattributed, name).toBe(0);
    }
    // Every stage got samples over the two endpoints; the create path's own steps on create.
    for (const stage of STAGES) {
      const samples = current.reduce((sum, result) => sum + result.samples[stage], 0);
      expect(samples, stage).toBeGreaterThan(0);
    }
    const create = current.find((result) => result.endpoint === 'create');
    for (const stage of ['body', 'validation', 'idempotency', 'operation', 'response'] as const) {
      expect(create?.samples[stage], `create ${stage}`).toBeGreaterThan(0);
    }
    expect(markdown).toContain('## Server CPU per request, by stage');
    for (const row of [...STAGES, ...OTHER_ROWS]) expect(markdown).toContain(STAGE_LABELS[row]);
  });

  it('computes the ratios and every target', () => {
    expect(report.ratios['create.mock/floor']).toBeGreaterThan(0);
    expect(report.ratios['retrieve.mock/floor']).toBeGreaterThan(0);
    expect(report.ratios['create.hono-floor/floor']).toBeGreaterThan(0);
    expect(report.ratios['retrieve.mock/hono-floor']).toBeGreaterThan(0);
    expect(report.ratios['create.p99.mock/hono-floor']).toBeGreaterThan(0);
    expect(report.targets.map((target) => target.target)).toEqual([
      '≥ 0.60×',
      '≥ 0.80×',
      '≤ 2×',
      '≤ 1.25×',
      '≤ 6 min',
      '≥ 55 %',
      '≥ 1×',
      '≥ 1×',
      '≥ 1×',
      '≥ 1×',
      '≥ 10×',
      '< 10 ms',
      '≤ 200 ms',
      '≤ 15 %',
      '≤ 1.15',
      '< 512 MiB',
      '≤ 1 ms',
      '≤ 3 ms',
      '≥ 0.5×',
      '≤ 2 s (100,000)',
      '≤ 1,443 B (halved)',
    ]);
    for (const target of report.targets) expect([true, false, null]).toContain(target.met);
  });

  it('renders BENCHMARKS.md with every section', () => {
    for (const heading of [
      '## Machine',
      '## Throughput and latency',
      '## Ratios',
      '## Cold start',
      '## SDK overhead',
      '## Contract proxy overhead',
      '## Memory',
      '## Memory under attack',
      '## Data directory',
      '## Targets',
      '## Server CPU per request, by stage',
    ]) {
      expect(markdown).toContain(heading);
    }
  });
});
