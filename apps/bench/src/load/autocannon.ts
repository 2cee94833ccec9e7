// Load from autocannon (npm, in this process), the fallback when wrk is not installed.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { benchApiKey } from '../payment-request.js';
import type { LoadResult, LoadSpec } from './types.js';

/**
 * Runs autocannon with the spec; a fresh Idempotency-Key per request through `setupRequest`.
 * Given `amount`, it stops after that many requests instead of after `durationSeconds`.
 *
 * @example
 * const result = await runAutocannon({ baseUrl: 'http://127.0.0.1:4010', method: 'GET', path: '/v1/payments/pay_1', headers: {}, uniqueIdempotencyKey: false, connections: 50, durationSeconds: 5 });
 */
export async function runAutocannon(spec: LoadSpec, amount?: number): Promise<LoadResult> {
  const prefix = `bench-${randomBytes(6).toString('hex')}-`;
  let counter = 0;
  const request: autocannon.Request = {
    method: spec.method,
    path: spec.path,
    headers: { ...spec.headers },
  };
  if (spec.body !== undefined) request.body = spec.body;
  const apiKeys = spec.apiKeys;
  if (spec.uniqueIdempotencyKey || apiKeys !== undefined) {
    request.setupRequest = (outgoing) => {
      counter++;
      const headers = { ...outgoing.headers };
      if (spec.uniqueIdempotencyKey) headers['idempotency-key'] = `${prefix}${counter}`;
      if (apiKeys !== undefined) headers.authorization = `Bearer ${benchApiKey(counter % apiKeys)}`;
      return { ...outgoing, headers };
    };
  }
  const result = await autocannon({
    url: spec.baseUrl,
    connections: spec.connections,
    duration: spec.durationSeconds,
    // Counted runs end with their last answer; the default 1 s sampling held each one for a second.
    ...(amount === undefined ? {} : { amount, sampleInt: 50 }),
    requests: [request],
  });
  return {
    tool: 'autocannon',
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / (result.duration || spec.durationSeconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    p999Ms: result.latency.p99_9,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
