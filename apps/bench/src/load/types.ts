// What a load generator is given and what it reports, whichever tool runs it.

/** One fixed-duration load run against one endpoint. */
export interface LoadSpec {
  /** Base URL, e.g. http://127.0.0.1:4010. */
  baseUrl: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  /** Send a fresh `Idempotency-Key` on every request. */
  uniqueIdempotencyKey: boolean;
  /**
   * Spread the requests over this many API keys (`Authorization: Bearer` of `benchApiKey(i)`, in
   * turn); absent: the spec's own headers carry the key.
   */
  apiKeys?: number;
  connections: number;
  durationSeconds: number;
}

/** The outcome of one load run. */
export interface LoadResult {
  tool: 'wrk' | 'autocannon';
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The 99.9th percentile latency. */
  p999Ms: number;
  /** Answers outside 2xx/3xx. */
  non2xx: number;
  /** Connect, read, write errors and timeouts. */
  errors: number;
}

/** Runs one load spec. */
export type LoadGenerator = (spec: LoadSpec) => Promise<LoadResult>;
