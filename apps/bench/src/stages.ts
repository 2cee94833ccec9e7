// Server CPU per request split by stage, bytes and objects allocated per request and the share of GC, for create and retrieve on the memory store: the current build and the one before, side by side.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BASELINE_MOCK_COMMIT, ensureMockBuild, STAGES_BASELINE_COMMIT } from './baseline-mock.js';
import type { LoadResult, LoadTool } from './load/index.js';
import { countedLoadTool } from './load/index.js';
import { autocannonVersion } from './machine.js';
import type { BenchSettings } from './modes.js';
import { benchDirectory, removeBenchDirectory } from './owned.js';
import { BENCH_DIR, MOCK_CLI, MOCK_CLI_NODE_FLAGS, MOCK_DIR, REPO_ROOT } from './paths.js';
import { createLoadSpec, RETRIEVE_HEADERS } from './payment-request.js';
import { alternatingRoundPlan, placeInRound, type RoundPlace } from './round-plan.js';
import type { RunningServer, ServerName } from './servers.js';
import { startServer } from './servers.js';
import {
  attributeCpuProfile,
  attributeHeapProfile,
  emptyCounts,
  type StageCounts,
  type StageCpuProfile,
  type StageHeapProfile,
} from './stage-attribution.js';
import { OTHER_ROWS, STAGES } from './stage-map.js';
import type { ProbeRequest, ProbeWindow } from './stage-probe.js';
import { medianOverRounds, type StageRound, stageRoundsFrom } from './stage-rounds.js';
import { type Endpoint, probeServer, resetLoadKeys } from './throughput.js';

/** A build of the mock to measure: its unbundled CLI entry and the directory its modules are in. */
export interface MockBuild {
  /** `current` (this checkout) or `previous` (BENCH_PREVIOUS, or the build before issue 41). */
  role: 'current' | 'previous';
  /** What the report calls it, e.g. `this checkout` or `d4b14ca`. */
  label: string;
  /**
   * The script the probed server runs: `packages/mock/dist/cli/main.js`, the modules the CLI bundle
   * is made from; a build from before the CLI's launcher (d7ac2fd) serves from its `dist/cli.js`.
   */
  main: string;
  /** The build's `dist/` directory: profile frames under it are the mock's modules. */
  dist: string;
  /** The build's CLI script as users start it (the bundle's launcher), for the throughput A/B. */
  cli: string;
}

/**
 * The measured build of this checkout: its CLI's unbundled entry (`dist/cli/main.js`), so that
 * profile frames name the mock's modules and functions (the bundle is minified, with no source map).
 */
export const CURRENT_BUILD: MockBuild = {
  role: 'current',
  label: 'this checkout',
  main: join(MOCK_DIR, 'dist/cli/main.js'),
  dist: join(MOCK_DIR, 'dist'),
  cli: MOCK_CLI,
};

/**
 * The unbundled CLI entry of a build given by its CLI script (`…/dist/cli.js` or `…/bin/…`);
 * undefined when the build has none.
 *
 * @example
 * unbundledMain('/x/packages/mock/dist/cli.js'); // '/x/packages/mock/dist/cli/main.js' (when it exists)
 */
export function unbundledMain(cliScript: string): string | undefined {
  const here = dirname(cliScript);
  return [join(here, 'cli/main.js'), join(here, '../dist/cli/main.js')].find((path) =>
    existsSync(path),
  );
}

/**
 * A previous build to probe, from its CLI script: its unbundled entry when it has one, else the
 * script itself when it serves in its own process (no launcher: the builds before `cli/`, whose
 * `dist/cli.js` is not a bundle); undefined when neither.
 *
 * @example
 * previousBuildOf('/x/.cache/mock-d7ac2fd/packages/mock/dist/cli.js', 'd7ac2fd'); // { main: '…/dist/cli.js', dist: '…/dist', … }
 */
export function previousBuildOf(cliScript: string, label: string): MockBuild | undefined {
  const main = unbundledMain(cliScript);
  if (main !== undefined) {
    return { role: 'previous', label, main, dist: dirname(dirname(main)), cli: cliScript };
  }
  const here = dirname(cliScript);
  const flat = existsSync(join(here, 'app.js')) && !existsSync(join(here, 'cli'));
  return flat
    ? { role: 'previous', label, main: cliScript, dist: here, cli: cliScript }
    : undefined;
}

/** A build from the bench's cache at a commit, or why there is none (`ensureMockBuild`). */
function commitStageBuild(commit: string, label: string, install: boolean): MockBuild | string {
  const build = ensureMockBuild(commit, install);
  if (!build.ok) return `the mock at ${commit}: ${build.reason}`;
  return previousBuildOf(build.entry, label) ?? `the mock at ${commit} has no dist/cli/main.js`;
}

/**
 * The build the stage table compares with when `BENCH_PREVIOUS` names one (another build's CLI
 * script, or a git revision, built into apps/bench/.cache), else the build before issue 41
 * (`STAGES_BASELINE_COMMIT`): built by a full run, taken from the cache by a quick one, and by a
 * smoke run only with BENCH_BASELINE=1 (`install`). A string says why there is none.
 *
 * @example
 * const previous = previousStageBuild(process.env.BENCH_PREVIOUS, settingsFor('full'));
 */
export function previousStageBuild(
  spec: string | undefined,
  settings: Pick<BenchSettings, 'mode' | 'buildBaselineMock'>,
): MockBuild | string {
  const given = spec !== undefined && spec !== '';
  if (!given) {
    return defaultStageBuild(STAGES_BASELINE_COMMIT, 'before issue 41', settings);
  }
  if (existsSync(spec)) {
    return (
      previousBuildOf(spec, spec) ?? `BENCH_PREVIOUS (${spec}) has no dist/cli/main.js beside it`
    );
  }
  let commit: string;
  try {
    commit = execFileSync('git', ['-C', REPO_ROOT, 'rev-parse', '--short=7', `${spec}^{commit}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return `BENCH_PREVIOUS (${spec}) is neither a file nor a git revision`;
  }
  return commitStageBuild(commit, spec === commit ? commit : `${spec} (${commit})`, true);
}

/** One of the stage table's default previous builds: from the cache, built as the mode allows. */
function defaultStageBuild(
  commit: string,
  what: string,
  settings: Pick<BenchSettings, 'mode' | 'buildBaselineMock'>,
): MockBuild | string {
  if (settings.mode === 'smoke' && !settings.buildBaselineMock) {
    return `the mock at ${commit}: not measured (smoke mode measures it only with BENCH_BASELINE=1 or BENCH_PREVIOUS)`;
  }
  return commitStageBuild(commit, `${commit} (${what})`, settings.buildBaselineMock);
}

/**
 * The builds the stage table compares with, oldest first: the one `BENCH_PREVIOUS` names, else
 * both issue 41 asks for, the build before the mock's redesign (`BASELINE_MOCK_COMMIT`, d7ac2fd)
 * and the build before issue 41 (d4b14ca); each found or built as `previousStageBuild` does.
 * `missing` says why a build is not there.
 *
 * @example
 * const { builds, missing } = previousStageBuilds(process.env.BENCH_PREVIOUS, settingsFor('full'));
 */
export function previousStageBuilds(
  spec: string | undefined,
  settings: Pick<BenchSettings, 'mode' | 'buildBaselineMock'>,
): { builds: MockBuild[]; missing: string[] } {
  const found =
    spec !== undefined && spec !== ''
      ? [previousStageBuild(spec, settings)]
      : [
          defaultStageBuild(BASELINE_MOCK_COMMIT, 'before the redesign', settings),
          previousStageBuild(undefined, settings),
        ];
  return {
    builds: found.filter((build): build is MockBuild => typeof build !== 'string'),
    missing: found.filter((build): build is string => typeof build === 'string'),
  };
}

/** Sizes of the stage run per mode. */
export interface StageSizes {
  /**
   * Rounds per endpoint: in each, every build runs a window unprofiled, then one profiled; odd
   * rounds take the builds oldest first, even rounds this checkout first (`alternatingRoundPlan`).
   */
  rounds: number;
  /** Seconds per window (by time), or requests per window (smoke: counted). */
  windowSeconds: number;
  windowRequests: number;
  /**
   * Requests each server is warmed up with per endpoint (counted, not timed: on a loaded machine a
   * second of load is a few hundred requests, too few for the JIT to settle).
   */
  warmupRequests: number;
  cpuIntervalUs: number;
  heapIntervalBytes: number;
}

/**
 * The stage run's sizes: full and quick, 2 rounds of 3 s windows after 5,000 requests of warm-up, CPU samples
 * every 100 µs; smoke, one round of 500 requests per window (autocannon, counted), every 25 µs.
 * `BENCH_STAGE_ROUNDS` (1 to 20) sets the rounds of any mode.
 *
 * @example
 * stageSizes(settingsFor('smoke')).windowRequests; // 500
 * stageSizes(settingsFor('full'), { BENCH_STAGE_ROUNDS: '4' }).rounds; // 4
 */
export function stageSizes(
  settings: BenchSettings,
  env: Record<string, string | undefined> = process.env,
): StageSizes {
  const heapIntervalBytes = 32_768;
  const rounds = (fallback: number) => stageRoundsFrom(env.BENCH_STAGE_ROUNDS, fallback);
  // Smoke windows are short: the profiler samples four times as often, so every stage gets
  // samples (the rarest, faults, about 20 over both endpoints, as 1,000 requests at 50 µs had).
  return settings.mode === 'smoke'
    ? {
        rounds: rounds(1),
        windowSeconds: 1,
        windowRequests: 500,
        warmupRequests: 0,
        cpuIntervalUs: 25,
        heapIntervalBytes,
      }
    : {
        rounds: rounds(2),
        windowSeconds: 3,
        windowRequests: 0,
        warmupRequests: 5_000,
        cpuIntervalUs: 100,
        heapIntervalBytes,
      };
}

/**
 * One build's figures on one endpoint, per request: CPU and bytes allocated are medians over the
 * rounds (each round's unprofiled window), the shares by stage and the counts sums over every window.
 */
export interface StageResult {
  build: MockBuild['role'];
  label: string;
  endpoint: Endpoint;
  /** Answers the server finished in the unprofiled windows (the CPU's denominator), and in the profiled ones. */
  requests: number;
  profiledRequests: number;
  /** Answers outside 2xx, as the server counted them and as the load tool did; load tool errors. */
  non2xxServer: number;
  non2xxClient: number;
  loadErrors: number;
  /** Client-side rate of the unprofiled windows (context only: the machine is shared). */
  requestsPerSecond: number;
  /** Process CPU (every thread) per request, µs: the median over the rounds. */
  cpuUs: number;
  /** Main (JavaScript) thread CPU per request, µs, the median over the rounds; null when /proc could not say. */
  mainThreadUs: number | null;
  /** Each round's unprofiled window: its place in the round's order and its figures per request. */
  rounds: StageRound[];
  /** Main-thread CPU per request by row, µs: its profile share × `mainThreadUs` (or `cpuUs`). */
  stageUs: StageCounts;
  /** The profile's samples by row, and the busy samples in all. */
  samples: StageCounts;
  busySamples: number;
  /** Mock modules whose samples the map could not place. */
  unplaced: Record<string, number>;
  /** Main-thread GC (the profile's share) over process CPU, %. */
  gcPercent: number;
  /** GC pauses of the unprofiled windows (v8.GCProfiler): per 1,000 requests, and their time per request, µs. */
  gcPausesPerThousand: number;
  gcPauseUs: number;
  /** Bytes allocated per request: heap statistics around every GC (exact; the median over the rounds), and V8's sampling heap profiler (an estimate). */
  allocatedBytes: number;
  sampledBytes: number;
  /** Objects allocated per request (sampling heap profiler), and bytes per request by row. */
  objects: number;
  stageBytes: StageCounts;
  heapSamples: number;
}

/** Everything the stage run measured. */
export interface StagesResult {
  sizes: StageSizes;
  tool: string;
  results: StageResult[];
}

/** A measured window's probe record, the load tool's outcome and where in the round plan it ran. */
export interface StageWindow {
  probe: ProbeWindow;
  load: LoadResult;
  place: RoundPlace;
}

const PROBE = join(BENCH_DIR, 'dist/stage-probe.js');

async function waitForFile(path: string, errorPath: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!existsSync(path)) {
    if (existsSync(errorPath)) throw new Error(`stage probe: ${readFileSync(errorPath, 'utf8')}`);
    if (performance.now() > deadline) throw new Error(`stage probe: no ${path} in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A server with the stage probe loaded, and the windows measured on it so far. */
interface ProbedServer {
  build: MockBuild;
  server: RunningServer;
  probeDir: string;
  windows: number;
  paymentId: string;
}

/** Runs one window: start the probe, run the load, stop the probe, read its record. */
async function measureWindow(
  probed: ProbedServer,
  label: string,
  place: RoundPlace,
  request: ProbeRequest,
  run: () => Promise<LoadResult>,
): Promise<StageWindow> {
  const number = probed.windows + 1;
  const errorPath = join(probed.probeDir, `error-${number}`);
  writeFileSync(join(probed.probeDir, 'next'), JSON.stringify(request));
  process.kill(probed.server.pid, 'SIGUSR2');
  await waitForFile(join(probed.probeDir, `started-${number}`), errorPath, 30_000);
  probed.windows = number;
  const load = await run();
  process.kill(probed.server.pid, 'SIGUSR2');
  const recordPath = join(probed.probeDir, `window-${number}.json`);
  await waitForFile(recordPath, errorPath, 120_000);
  const probe = JSON.parse(readFileSync(recordPath, 'utf8')) as ProbeWindow;
  rmSync(recordPath, { force: true });
  // BENCH_STAGE_PROFILES=<dir> keeps each profiled window's profiles (to open in Chrome DevTools).
  const keep = process.env.BENCH_STAGE_PROFILES;
  if (keep !== undefined && keep !== '' && probe.cpuProfile !== undefined) {
    mkdirSync(keep, { recursive: true });
    const name = `${probed.build.role}-${label}-${number}`;
    writeFileSync(join(keep, `${name}.cpuprofile`), JSON.stringify(probe.cpuProfile));
    writeFileSync(join(keep, `${name}.heapprofile`), JSON.stringify(probe.heapProfile));
  }
  return { probe, load, place };
}

/**
 * Bytes allocated in a window from the used heap around each GC: what it grew by between one
 * GC's end and the next one's start, and after the last.
 *
 * @example
 * allocatedBytes({ usedHeapStart: 10, usedHeapEnd: 15, gcs: [{ usedBefore: 30, usedAfter: 5 }] }); // 30
 */
export function allocatedBytes(
  window: Pick<ProbeWindow, 'usedHeapStart' | 'usedHeapEnd' | 'gcs'>,
): number {
  let total = 0;
  let after = window.usedHeapStart;
  for (const gc of window.gcs) {
    total += Math.max(0, gc.usedBefore - after);
    after = gc.usedAfter;
  }
  return total + Math.max(0, window.usedHeapEnd - after);
}

const ordinal = (position: number) => ['first', 'second', 'third'][position] ?? `#${position + 1}`;

const answered = (probe: ProbeWindow) =>
  Object.values(probe.responses).reduce((sum, count) => sum + count, 0);
const non2xx = (probe: ProbeWindow) => answered(probe) - (probe.responses['2xx'] ?? 0);

/**
 * One unprofiled window's figures per request, with its place in the round plan.
 *
 * @example
 * stageRoundOf(window).cpuUs; // process CPU per answer in that window, µs
 */
export function stageRoundOf(window: StageWindow): StageRound {
  const requests = answered(window.probe);
  const per = (value: number) => (requests === 0 ? 0 : value / requests);
  const main = window.probe.mainThreadCpuUs;
  return {
    ...window.place,
    requests,
    cpuUs: per(window.probe.cpuUs),
    mainThreadUs: main === undefined ? null : per(main),
    allocatedBytes: per(allocatedBytes(window.probe)),
  };
}

/**
 * One build's windows on one endpoint as per-request figures: CPU and bytes allocated the medians
 * over its rounds (`medianOverRounds`), the stages' shares from every profiled window's samples.
 *
 * @example
 * const result = summarizeStages(CURRENT_BUILD, 'create', plain, profiled, mockDist);
 */
export function summarizeStages(
  build: MockBuild,
  endpoint: Endpoint,
  plain: StageWindow[],
  profiled: StageWindow[],
  mockDist: string,
): StageResult {
  const sum = (windows: StageWindow[], of: (window: StageWindow) => number) =>
    windows.reduce((total, window) => total + of(window), 0);
  const requests = sum(plain, (window) => answered(window.probe));
  const profiledRequests = sum(profiled, (window) => answered(window.probe));
  const per = (value: number, count = requests) => (count === 0 ? 0 : value / count);
  const rounds = plain.map((window) => stageRoundOf(window));
  const medians = medianOverRounds(rounds);
  const cpuUs = medians?.cpuUs ?? 0;
  const mainThreadUs = medians === null ? null : medians.mainThreadUs;
  const samples = emptyCounts();
  const unplaced: Record<string, number> = {};
  const stageBytes = emptyCounts();
  let busySamples = 0;
  let sampledBytes = 0;
  let objects = 0;
  let heapSamples = 0;
  for (const window of profiled) {
    const cpu = attributeCpuProfile(window.probe.cpuProfile as StageCpuProfile, mockDist);
    const heap = attributeHeapProfile(
      window.probe.heapProfile as StageHeapProfile,
      window.probe.request.heapIntervalBytes,
      mockDist,
    );
    busySamples += cpu.busy;
    heapSamples += heap.samples;
    for (const row of [...STAGES, ...OTHER_ROWS]) {
      samples[row] += cpu.counts[row];
      stageBytes[row] += heap.bytes[row];
      sampledBytes += heap.bytes[row];
      objects += heap.objects[row];
    }
    for (const [module, count] of Object.entries(cpu.unplaced))
      unplaced[module] = (unplaced[module] ?? 0) + count;
  }
  const thread = mainThreadUs ?? cpuUs;
  const stageUs = emptyCounts();
  for (const row of [...STAGES, ...OTHER_ROWS]) {
    stageUs[row] = busySamples === 0 ? 0 : (thread * samples[row]) / busySamples;
    stageBytes[row] = per(stageBytes[row], profiledRequests);
  }
  const gcs = plain.flatMap((window) => window.probe.gcs);
  const seconds = sum(plain, (window) => window.probe.wallMs) / 1000;
  return {
    build: build.role,
    label: build.label,
    endpoint,
    requests,
    profiledRequests,
    non2xxServer: sum([...plain, ...profiled], (window) => non2xx(window.probe)),
    non2xxClient: sum([...plain, ...profiled], (window) => window.load.non2xx),
    loadErrors: sum([...plain, ...profiled], (window) => window.load.errors),
    requestsPerSecond: seconds === 0 ? 0 : sum(plain, (window) => window.load.requests) / seconds,
    cpuUs,
    mainThreadUs,
    rounds,
    stageUs,
    samples,
    busySamples,
    unplaced,
    gcPercent: cpuUs === 0 ? 0 : (100 * stageUs.gc) / cpuUs,
    gcPausesPerThousand: per(gcs.length * 1000),
    gcPauseUs: per(gcs.reduce((total, gc) => total + gc.costUs, 0)),
    allocatedBytes: medians?.allocatedBytes ?? 0,
    sampledBytes: per(sampledBytes, profiledRequests),
    objects: per(objects, profiledRequests),
    stageBytes,
    heapSamples,
  };
}

/**
 * Measures each build's server CPU per request by stage, allocations and GC, under create and
 * retrieve load on the memory store (the CLI with default settings: it logs each request). Each
 * build runs as its unbundled CLI with `stage-probe.js` loaded; per endpoint, after a warm-up,
 * rounds take the builds in turn, as listed in odd rounds and in reverse in even ones
 * (`alternatingRoundPlan`), each build a window unprofiled (CPU, GC, allocated bytes: what the
 * profilers would inflate) then one profiled (the CPU profile's shares per stage, the sampling
 * heap profile). Creates start each timed window on emptied keys (a smoke run's 1,000 fill nothing).
 *
 * @example
 * const result = await measureStages([CURRENT_BUILD], loadTool, settingsFor('full'), '/tmp/logs', console.error);
 */
export async function measureStages(
  builds: MockBuild[],
  loadTool: LoadTool,
  settings: BenchSettings,
  logDir: string,
  log: (line: string) => void,
): Promise<StagesResult> {
  const sizes = stageSizes(settings);
  const tool =
    sizes.windowRequests > 0
      ? countedLoadTool(autocannonVersion(), sizes.windowRequests)
      : loadTool;
  const probedServers: ProbedServer[] = [];
  try {
    for (const build of builds) {
      const probeDir = benchDirectory('bench-stages-');
      const name: ServerName = build.role === 'current' ? 'mock' : 'mock-previous';
      const server = await startServer(
        {
          name,
          args: (port) => [...MOCK_CLI_NODE_FLAGS, build.main, '--port', String(port)],
        },
        logDir,
        ['--import', pathToFileURL(PROBE).href],
        { STAGE_PROBE_DIR: probeDir },
      );
      probedServers.push({ build, server, probeDir, windows: 0, paymentId: '' });
    }
    const results: StageResult[] = [];
    for (const endpoint of ['create', 'retrieve'] as const) {
      const spec = (probed: ProbedServer, seconds: number) =>
        endpoint === 'create'
          ? createLoadSpec(probed.server.url, settings.connections, seconds)
          : {
              baseUrl: probed.server.url,
              method: 'GET' as const,
              path: `/v1/payments/${encodeURIComponent(probed.paymentId)}`,
              headers: RETRIEVE_HEADERS,
              uniqueIdempotencyKey: false,
              connections: settings.connections,
              durationSeconds: seconds,
            };
      const windows = new Map<ProbedServer, { plain: StageWindow[]; profiled: StageWindow[] }>();
      for (const probed of probedServers) {
        const probe = await probeServer(probed.server);
        if (!probe.ok) throw new Error(`${probed.build.label}: ${probe.create}, ${probe.retrieve}`);
        probed.paymentId = probe.paymentId;
        if (sizes.warmupRequests > 0) {
          await countedLoadTool(autocannonVersion(), sizes.warmupRequests).run(spec(probed, 60));
        }
        windows.set(probed, { plain: [], profiled: [] });
      }
      // Odd rounds run the builds as listed (the oldest first), even rounds in reverse: the
      // server measured second in a round runs on a machine the first one warmed (or loaded).
      for (const planned of alternatingRoundPlan(probedServers.length, sizes.rounds)) {
        for (const index of planned.builds) {
          const probed = probedServers[index] as ProbedServer;
          const place = placeInRound(planned, index);
          for (const profiled of [false, true]) {
            // Timed windows fill the sandbox's budget (about 90,000 creates): each starts emptied.
            if (endpoint === 'create' && sizes.windowRequests === 0) {
              await resetLoadKeys(probed.server);
            }
            const window = await measureWindow(
              probed,
              endpoint,
              place,
              {
                profiled,
                cpuIntervalUs: sizes.cpuIntervalUs,
                heapIntervalBytes: sizes.heapIntervalBytes,
              },
              () => tool.run(spec(probed, sizes.windowSeconds)),
            );
            windows.get(probed)?.[profiled ? 'profiled' : 'plain'].push(window);
            log(
              `stages: ${endpoint} ${probed.build.label} round ${planned.round} (${planned.order} order, ${ordinal(place.position)})${profiled ? ' (profiled)' : ''}: ${window.load.requests} requests, ${Math.round(window.probe.cpuUs / Math.max(1, window.load.requests))} µs CPU each, non-2xx ${window.load.non2xx}, errors ${window.load.errors}`,
            );
          }
        }
      }
      for (const probed of probedServers) {
        const measured = windows.get(probed) ?? { plain: [], profiled: [] };
        results.push(
          summarizeStages(
            probed.build,
            endpoint,
            measured.plain,
            measured.profiled,
            realpathSync(probed.build.dist),
          ),
        );
      }
    }
    return { sizes, tool: tool.version, results };
  } finally {
    await Promise.all(probedServers.map((probed) => probed.server.stop()));
    for (const probed of probedServers) removeBenchDirectory(probed.probeDir);
  }
}
