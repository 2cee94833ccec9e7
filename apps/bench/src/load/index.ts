// Picks the load generator: wrk when installed (or forced by BENCH_LOAD), else autocannon.
import { runAutocannon } from './autocannon.js';
import type { LoadGenerator } from './types.js';
import { runWrk, wrkVersion } from './wrk.js';

export type { LoadGenerator, LoadResult, LoadSpec } from './types.js';

/** The chosen generator and its version line. */
export interface LoadTool {
  name: 'wrk' | 'autocannon';
  version: string;
  run: LoadGenerator;
}

/**
 * wrk if present, else autocannon; `BENCH_LOAD=autocannon` forces the fallback.
 *
 * @example
 * const tool = chooseLoadTool('8.0.0');
 * const result = await tool.run(spec);
 */
export function chooseLoadTool(autocannonVersion: string): LoadTool {
  const wrk = process.env.BENCH_LOAD === 'autocannon' ? undefined : wrkVersion();
  if (wrk !== undefined) return { name: 'wrk', version: wrk, run: runWrk };
  return { name: 'autocannon', version: `autocannon ${autocannonVersion}`, run: runAutocannon };
}

/**
 * autocannon stopping each run after `requests` requests, for the smoke run: a check that every
 * section works needs a few hundred answers, not the whole second that wrk (which stops only on
 * time) would spend at full load on each of some twenty runs.
 *
 * @example
 * const tool = countedLoadTool('8.0.0', 300); // tool.version: 'autocannon 8.0.0, 300 requests a run'
 */
export function countedLoadTool(autocannonVersion: string, requests: number): LoadTool {
  return {
    name: 'autocannon',
    version: `autocannon ${autocannonVersion}, ${requests} requests a run`,
    run: (spec) => runAutocannon(spec, requests),
  };
}
