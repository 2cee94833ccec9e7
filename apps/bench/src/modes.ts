// The two run modes: the full benchmark (`npm run bench`) and the short smoke run of CI.

/** Every knob of a run. */
export interface BenchSettings {
  mode: 'full' | 'smoke';
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
  /** Install Prism when it is absent (the full run) or skip it (smoke). */
  installPrism: boolean;
  /** Build the pre-redesign mock when it is absent (the full run) or skip it (smoke). */
  buildBaselineMock: boolean;
}

/**
 * The settings of a mode. Full: 50 connections, 3 rounds of 8 s per server and endpoint,
 * 200,000 creates per memory phase. Smoke: about a second per measurement.
 *
 * @example
 * settingsFor('smoke').roundSeconds; // 1
 */
export function settingsFor(mode: 'full' | 'smoke'): BenchSettings {
  if (mode === 'full') {
    return {
      mode,
      connections: 50,
      warmupSeconds: 2,
      roundSeconds: 8,
      rounds: 3,
      coldStartRuns: 7,
      sdkRoundSeconds: 4,
      sdkRounds: 5,
      sdkConcurrency: 10,
      memoryCreatesPerPhase: 200_000,
      memoryKeys: 1_000,
      profileSeconds: 8,
      installPrism: true,
      buildBaselineMock: true,
    };
  }
  return {
    mode,
    connections: 50,
    warmupSeconds: 0,
    roundSeconds: 1,
    rounds: 1,
    coldStartRuns: 2,
    sdkRoundSeconds: 0.5,
    sdkRounds: 1,
    sdkConcurrency: 10,
    memoryCreatesPerPhase: 5_000,
    memoryKeys: 100,
    profileSeconds: 1,
    installPrism: process.env.BENCH_PRISM === '1',
    buildBaselineMock: process.env.BENCH_BASELINE === '1',
  };
}
