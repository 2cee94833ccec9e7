// The run modes: the full benchmark (`npm run bench`), the quick A/B of the targets, and CI's smoke run.

/** Which run: full (BENCHMARKS.md), quick (the targets only) or smoke (CI, a few hundred requests each). */
export type BenchMode = 'full' | 'quick' | 'smoke';

/** Every knob of a run. */
export interface BenchSettings {
  mode: BenchMode;
  connections: number;
  warmupSeconds: number;
  roundSeconds: number;
  rounds: number;
  coldStartRuns: number;
  sdkRoundSeconds: number;
  sdkRounds: number;
  sdkConcurrency: number;
  memoryCreatesPerPhase: number;
  memoryKeys: number;
  profileSeconds: number;
  /** Exchanges per endpoint, straight and through the contract proxy (0: not measured). */
  proxyRequests: number;
  /**
   * Runs of this many requests instead of `roundSeconds` (0: by time). The profile keeps the chosen
   * load tool, so that a smoke run still drives wrk once.
   */
  roundRequests: number;
  /** Install Prism when it is absent (the full run) or skip it (smoke). */
  installPrism: boolean;
  /** Build the pre-redesign mock when it is absent (the full run) or skip it (smoke). */
  buildBaselineMock: boolean;
  /**
   * Only what the targets need: the Hono floor and the mock on create and retrieve, their cold
   * starts; no raw floor, SDK, memory, attacks or profile.
   */
  targetsOnly: boolean;
}

/**
 * The settings of a mode. Full: 50 connections, 3 interleaved rounds of 4 s per server and
 * endpoint, 200,000 creates per memory phase. Quick: the Hono floor and the mock only, 5 rounds
 * of 3 s. Smoke: 100 requests per measurement (autocannon; wrk drives the profile), 8 connections.
 *
 * @example
 * settingsFor('smoke').roundSeconds; // 1
 */
export function settingsFor(mode: BenchMode): BenchSettings {
  if (mode === 'full') {
    return {
      mode,
      connections: 50,
      warmupSeconds: 1,
      roundSeconds: 4,
      rounds: 3,
      coldStartRuns: 7,
      sdkRoundSeconds: 1.5,
      sdkRounds: 2,
      sdkConcurrency: 10,
      memoryCreatesPerPhase: 200_000,
      memoryKeys: 1_000,
      profileSeconds: 5,
      proxyRequests: 3_000,
      roundRequests: 0,
      installPrism: true,
      buildBaselineMock: true,
      targetsOnly: false,
    };
  }
  if (mode === 'quick') {
    return {
      mode,
      connections: 50,
      warmupSeconds: 1,
      roundSeconds: 3,
      rounds: 5,
      coldStartRuns: 9,
      sdkRoundSeconds: 0,
      sdkRounds: 0,
      sdkConcurrency: 10,
      memoryCreatesPerPhase: 0,
      memoryKeys: 0,
      profileSeconds: 0,
      proxyRequests: 0,
      roundRequests: 0,
      installPrism: false,
      buildBaselineMock: false,
      targetsOnly: true,
    };
  }
  return {
    mode,
    // Enough to exercise concurrency; 50 would saturate both cores for every second measured, which
    // the smoke run (a check that every section works, inside `npm test`) does not need.
    connections: 8,
    warmupSeconds: 0,
    roundSeconds: 1,
    rounds: 1,
    coldStartRuns: 1,
    // Sizes that show each section works (every server answers, every figure is computed), not
    // figures to read: each is a CPU-second or more of `npm test` that a larger size would add.
    sdkRoundSeconds: 0.1,
    sdkRounds: 1,
    sdkConcurrency: 10,
    memoryCreatesPerPhase: 500,
    memoryKeys: 100,
    profileSeconds: 1,
    proxyRequests: 50,
    roundRequests: 100,
    installPrism: process.env.BENCH_PRISM === '1',
    buildBaselineMock: process.env.BENCH_BASELINE === '1',
    targetsOnly: false,
  };
}
