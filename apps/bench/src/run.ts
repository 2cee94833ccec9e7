// Runs every measurement in order (throughput, SDK, cold start, memory, data directory, Valkey/Redis fleet, attacks, profile, stage table) and writes the report.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { type AttackMemoryResult, measureAttackMemory } from './attack-memory.js';
import { ensureBaselineMock, ensureBeforeSeamMock } from './baseline-mock.js';
import { measureColdStarts } from './cold-start.js';
import { type DataDirResult, measureDataDir } from './data-dir.js';
import { HOT_PATH_FIXES } from './fixes.js';
import { chooseLoadTool, countedLoadTool } from './load/index.js';
import { autocannonVersion, collectVersions, describeMachine } from './machine.js';
import { type MemoryResult, measureMemory } from './memory.js';
import { type BenchMode, settingsFor } from './modes.js';
import { benchDirectory, removeBenchDirectory } from './owned.js';
import { ensurePrism } from './prism.js';
import { type ProfileResult, profileMock } from './profile.js';
import { measureProxyCost, type ProxyOverheadResult } from './proxy-overhead.js';
import { measureRedisFleet, type RedisFleetResult } from './redis-fleet.js';
import { type BenchReport, buildReport, renderMarkdown } from './report.js';
import { measureSdkOverhead, type SdkOverheadResult } from './sdk-overhead.js';
import { type RunningServer, type ServerName, serverCommand, startServer } from './servers.js';
import {
  CURRENT_BUILD,
  type MockBuild,
  measureStages,
  previousStageBuilds,
  type StagesResult,
  stageSizes,
} from './stages.js';
import { measureThroughput } from './throughput.js';

/** Where a run writes its report. */
export interface ReportPaths {
  markdown: string;
  json: string;
}

/**
 * Runs every measurement in `mode` and writes BENCHMARKS.md and the JSON report.
 *
 * @example
 * const report = await runBench('smoke', { markdown: '/tmp/B.md', json: '/tmp/B.json' });
 */
export async function runBench(mode: BenchMode, paths: ReportPaths): Promise<BenchReport> {
  const started = performance.now();
  const log = (line: string) =>
    process.stderr.write(
      `bench: [${Math.round((performance.now() - started) / 1000)} s] ${line}\n`,
    );
  const settings = settingsFor(mode);
  // A bad BENCH_STAGE_ROUNDS stops the run here, not after every section before the stage table.
  stageSizes(settings);
  const machine = describeMachine();
  const profileTool = chooseLoadTool(autocannonVersion());
  const loadTool =
    settings.roundRequests > 0
      ? countedLoadTool(autocannonVersion(), settings.roundRequests)
      : profileTool;
  const prism = ensurePrism(settings.installPrism);
  const baseline = ensureBaselineMock(settings.buildBaselineMock);
  // The previous builds the throughput table compares with (d7ac2fd and 9bf239d): built by a
  // full run, taken from the cache by a quick one, by a smoke run only with BENCH_BASELINE=1.
  const beforeSeam = ensureBeforeSeamMock(settings.buildBaselineMock);
  const skipped: string[] = [];
  if (prism === undefined)
    skipped.push('Prism: not installed (smoke mode installs it only with BENCH_PRISM=1).');
  if (!baseline.ok) skipped.push(`The mock before the redesign: ${baseline.reason}.`);
  if (!beforeSeam.ok) skipped.push(`The mock before the store seam: ${beforeSeam.reason}.`);
  // The stage table's builds before: BENCH_PREVIOUS (a CLI script or a git revision), else
  // d7ac2fd (before the redesign) and d4b14ca (before issue 41).
  const stagePrevious = previousStageBuilds(process.env.BENCH_PREVIOUS, settings);
  for (const missing of stagePrevious.missing) {
    skipped.push(`A previous build of the stage table: ${missing}.`);
  }
  // A quick run may A/B another build of the mock (e.g. a copy of dist/ before a change).
  const previous =
    mode === 'quick' && process.env.BENCH_PREVIOUS ? stagePrevious.builds[0]?.cli : undefined;
  const entries = {
    prism: prism?.entry,
    mockBefore: baseline.ok ? baseline.entry : undefined,
    mockBeforeSeam: beforeSeam.ok ? beforeSeam.entry : undefined,
    mockPrevious: previous,
  };
  log(
    `${mode} run with ${loadTool.version} (profile: ${profileTool.version}); Prism ${prism?.version ?? 'skipped'}; load ${machine.loadAverageStart.toFixed(2)}`,
  );
  const logDir = benchDirectory('bench-logs-');
  const running: RunningServer[] = [];
  try {
    const names: ServerName[] = settings.targetsOnly
      ? ['hono-floor', 'mock']
      : ['floor', 'hono-floor', 'mock', 'mock-quiet'];
    if (baseline.ok) names.push('mock-before');
    // Interleaved with the others in every round; not in the cold-start table (no target there).
    if (beforeSeam.ok) names.push('mock-before-seam');
    if (previous !== undefined) names.push('mock-previous');
    if (prism !== undefined) names.push('prism');
    // Side by side: each start mostly waits on its process's start-up.
    const starts = await Promise.allSettled(
      names.map((name) => startServer(serverCommand(name, entries), logDir)),
    );
    for (const start of starts) if (start.status === 'fulfilled') running.push(start.value);
    const failed = starts.find((start) => start.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const throughput = await measureThroughput(running, loadTool, settings, log);
    const sdkOverhead: SdkOverheadResult[] = [];
    if (!settings.targetsOnly) {
      const mockQuiet = running.find((server) => server.name === 'mock-quiet') as RunningServer;
      sdkOverhead.push(...(await measureSdkOverhead(mockQuiet, settings, log)));
      const floor = running.find((server) => server.name === 'floor') as RunningServer;
      sdkOverhead.push(...(await measureSdkOverhead(floor, settings, log)));
    }
    const proxyOverhead: ProxyOverheadResult[] = [];
    if (settings.proxyRequests > 0) {
      const mockQuiet = running.find((server) => server.name === 'mock-quiet') as RunningServer;
      proxyOverhead.push(...(await measureProxyCost(mockQuiet, settings, logDir, log)));
    }
    await Promise.all(running.splice(0).map((server) => server.stop()));

    // The floors show how much of a cold start is node's own on this machine today.
    const coldStartNames: ServerName[] = settings.targetsOnly
      ? ['hono-floor', 'mock']
      : ['floor', 'hono-floor', 'mock'];
    if (baseline.ok) coldStartNames.push('mock-before');
    if (previous !== undefined) coldStartNames.push('mock-previous');
    if (prism !== undefined) coldStartNames.push('prism');
    const coldStart = await measureColdStarts(
      coldStartNames.map((name) => serverCommand(name, entries)),
      settings,
      logDir,
    );
    log(
      `cold start: ${coldStart.map((result) => `${result.server} ${Math.round(result.medianMs)} ms`).join(', ')}`,
    );

    let memory: MemoryResult | undefined;
    let attackMemory: AttackMemoryResult[] = [];
    let profile: ProfileResult | undefined;
    let dataDir: DataDirResult | undefined;
    let redisFleet: RedisFleetResult | undefined;
    if (!settings.targetsOnly) {
      const memoryServer = await startServer(serverCommand('mock-quiet'), logDir);
      running.push(memoryServer);
      memory = await measureMemory(memoryServer, settings, log);
      await Promise.all(running.splice(0).map((server) => server.stop()));
      log('memory measured');
      // One memory-store server is the baseline of both store sections (each interleaves it
      // with its own stores; a create round starts on emptied keys): one start fewer.
      const memoryStore = await startServer(serverCommand('mock-quiet'), logDir);
      running.push(memoryStore);
      dataDir = await measureDataDir(loadTool, settings, logDir, log, memoryStore);
      log('data directory measured');
      const fleet = await measureRedisFleet(loadTool, settings, logDir, log, memoryStore);
      await Promise.all(running.splice(0).map((server) => server.stop()));
      if ('skipped' in fleet) skipped.push(fleet.skipped);
      else redisFleet = fleet.result;
      log(`Valkey/Redis fleet ${redisFleet === undefined ? 'skipped' : 'measured'}`);
      attackMemory = await measureAttackMemory(mode === 'full' ? 'full' : 'smoke', log);
      log('attacks replayed');
      profile = await profileMock('mock', profileTool, settings, logDir);
      log(`profile: top ${profile.topFunctions[0]?.name ?? 'none'}`);
    }

    // Server CPU per request by stage, allocations and GC: every mode (a quick run is an A/B).
    const stageBuilds: MockBuild[] = [...stagePrevious.builds, CURRENT_BUILD];
    const stages: StagesResult = await measureStages(stageBuilds, loadTool, settings, logDir, log);
    log('stage table measured');

    const report = buildReport({
      machine,
      versions: collectVersions(prism?.version, loadTool.version),
      settings,
      throughput,
      coldStart,
      sdkOverhead,
      proxyOverhead,
      memory,
      dataDir,
      redisFleet,
      attackMemory,
      profile,
      stages,
      fixes: HOT_PATH_FIXES,
      skipped,
      loadAverageEnd: loadavg()[0] ?? 0,
      durationSeconds: (performance.now() - started) / 1000,
    });
    writeFileSync(paths.markdown, renderMarkdown(report));
    writeFileSync(paths.json, `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${paths.markdown} and ${paths.json}`);
    return report;
  } finally {
    await Promise.all(running.map((server) => server.stop()));
    removeBenchDirectory(logDir);
  }
}
