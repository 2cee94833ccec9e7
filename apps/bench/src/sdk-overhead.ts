// SDK overhead: payments.create against bare fetch, same requests to the same server, same process.
import { randomUUID } from 'node:crypto';
import { createClient } from '@payment-service/sdk';
import type { BenchSettings } from './modes.js';
import { BENCH_API_KEY, CREATE_BODY, CREATE_BODY_TEXT, isPaymentBody } from './payment-request.js';
import type { RunningServer } from './servers.js';
import { median } from './stats.js';

/** One client variant: a function that creates one payment and returns its id. */
type CreateOnce = () => Promise<string>;

/** SDK against fetch at one concurrency, on one server. */
export interface SdkOverheadResult {
  server: RunningServer['name'];
  concurrency: number;
  fetchRequestsPerSecond: number;
  /** Bare fetch with the init the SDK passes (`redirect: 'error'`, no window). */
  sameInitFetchRequestsPerSecond: number;
  sdkRequestsPerSecond: number;
  /** Extra time per request with the SDK: fetch rate / SDK rate − 1 (0.05 is 5 %). */
  overhead: number;
  /** The SDK's own cost (openapi-fetch, retries, timeout signal): same-init fetch rate / SDK rate − 1. */
  machineryOverhead: number;
  /** Every create answered a payment, with both clients. */
  correct: boolean;
}

/**
 * Bare fetch: the same POST the SDK sends (bearer key, JSON body, a fresh UUID Idempotency-Key).
 *
 * @example
 * const create = bareFetchCreate('http://127.0.0.1:4010');
 * await create(); // 'pay_…'
 */
export function bareFetchCreate(baseUrl: string, init: RequestInit = {}): CreateOnce {
  const url = `${baseUrl}/v1/payments`;
  return async () => {
    const response = await fetch(url, {
      ...init,
      method: 'POST',
      headers: {
        authorization: `Bearer ${BENCH_API_KEY}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: CREATE_BODY_TEXT,
    });
    const body: unknown = await response.json();
    if (!response.ok || !isPaymentBody(body)) throw new Error(`fetch create: ${response.status}`);
    return body.id;
  };
}

/**
 * The fetch init the SDK adds to each attempt: it refuses redirects, which lets Node's fetch skip
 * copying the request and teeing its body (a large share of bare fetch's own cost on Node 20).
 */
export const SDK_FETCH_INIT: RequestInit = { redirect: 'error', window: null };

/**
 * The SDK's `payments.create` with the same body (it sends its own UUID Idempotency-Key).
 *
 * @example
 * const create = sdkCreate('http://127.0.0.1:4010');
 * await create(); // 'pay_…'
 */
export function sdkCreate(baseUrl: string): CreateOnce {
  const client = createClient({ apiKey: BENCH_API_KEY, baseUrl });
  return async () => {
    const payment = await client.payments.create({
      ...CREATE_BODY,
      payment_method: { ...CREATE_BODY.payment_method },
    });
    return payment.id;
  };
}

/**
 * Calls `create` from `concurrency` loops for `seconds`; returns completed creates per second
 * and whether any failed.
 *
 * @example
 * await runFor(bareFetchCreate(url), 1, 2); // { requestsPerSecond: 2900, failures: 0 }
 */
export async function runFor(
  create: CreateOnce,
  concurrency: number,
  seconds: number,
): Promise<{ requestsPerSecond: number; failures: number }> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let completed = 0;
  let failures = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      try {
        await create();
        completed++;
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { requestsPerSecond: completed / ((performance.now() - started) / 1000), failures };
}

/**
 * Measures SDK overhead on a server at concurrency 1 (sequential) and `settings.sdkConcurrency`
 * against bare fetch and against fetch with the SDK's init, alternating the order each round;
 * medians over rounds.
 *
 * @example
 * const results = await measureSdkOverhead(mockQuiet, settingsFor('full'), console.error);
 */
export async function measureSdkOverhead(
  server: RunningServer,
  settings: BenchSettings,
  log: (line: string) => void,
): Promise<SdkOverheadResult[]> {
  const clients = {
    fetch: bareFetchCreate(server.url),
    sameInitFetch: bareFetchCreate(server.url, SDK_FETCH_INIT),
    sdk: sdkCreate(server.url),
  };
  const results: SdkOverheadResult[] = [];
  for (const concurrency of [1, settings.sdkConcurrency]) {
    const variants = ['fetch', 'sameInitFetch', 'sdk'] as const;
    for (const variant of variants) {
      await runFor(clients[variant], concurrency, Math.min(1, settings.sdkRoundSeconds)); // warm up
    }
    const rates = { fetch: [] as number[], sameInitFetch: [] as number[], sdk: [] as number[] };
    let failures = 0;
    for (let round = 0; round < settings.sdkRounds; round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        const run = await runFor(clients[variant], concurrency, settings.sdkRoundSeconds);
        rates[variant].push(run.requestsPerSecond);
        failures += run.failures;
      }
    }
    const fetchRate = median(rates.fetch);
    const sameInitRate = median(rates.sameInitFetch);
    const sdkRate = median(rates.sdk);
    log(
      `sdk ${server.name} concurrency ${concurrency}: fetch ${Math.round(fetchRate)} req/s, same-init fetch ${Math.round(sameInitRate)} req/s, sdk ${Math.round(sdkRate)} req/s`,
    );
    results.push({
      server: server.name,
      concurrency,
      fetchRequestsPerSecond: fetchRate,
      sameInitFetchRequestsPerSecond: sameInitRate,
      sdkRequestsPerSecond: sdkRate,
      overhead: fetchRate / sdkRate - 1,
      machineryOverhead: sameInitRate / sdkRate - 1,
      correct: failures === 0 && fetchRate > 0 && sameInitRate > 0 && sdkRate > 0,
    });
  }
  return results;
}
