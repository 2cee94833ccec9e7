// What the stage table's unit tests give `summarizeStages` beside a probe record: the load tool's outcome of a clean 1,000-request window.
import type { LoadResult } from '../load/index.js';

/**
 * A window's load: 1,000 requests, every answer 2xx, no load error.
 *
 * @example
 * summarizeStages(build, 'create', [{ probe, load: CLEAN_LOAD, place }], [], DIST);
 */
export const CLEAN_LOAD: LoadResult = {
  tool: 'wrk',
  requests: 1000,
  requestsPerSecond: 1000,
  p50Ms: 1,
  p99Ms: 2,
  p999Ms: 3,
  non2xx: 0,
  errors: 0,
};
