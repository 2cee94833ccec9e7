// The contract proxy's cost per exchange: the same creates and retrieves sent straight to the mock and through the proxy in front of it, one at a time, interleaved.
import { randomUUID } from 'node:crypto';
import {
  measureProxyOverhead,
  type OverheadRequest,
  type ProxyOverhead,
} from '@payment-service/contract/toolkit';
import type { BenchSettings } from './modes.js';
import { CREATE_BODY_TEXT, CREATE_HEADERS, RETRIEVE_HEADERS } from './payment-request.js';
import { type RunningServer, serverCommand, startServer, waitForFirstCreate } from './servers.js';
import type { Endpoint } from './throughput.js';

/** The proxy's cost on one endpoint. */
export interface ProxyOverheadResult extends ProxyOverhead {
  endpoint: Endpoint;
}

/** The targets for what the proxy adds per exchange, in ms. */
export const PROXY_OVERHEAD_TARGETS = { p50: 1, p99: 3 } as const;

/**
 * Starts the contract proxy in front of `target` (our mock) and measures what it adds to a create
 * and to a retrieve: `settings.proxyRequests` exchanges of each, straight and proxied in turn.
 *
 * @example
 * const results = await measureProxyCost(mockQuiet, settingsFor('full'), logDir, console.error);
 * results[0]?.added.p50; // ms the proxy adds at the median
 */
export async function measureProxyCost(
  target: RunningServer,
  settings: BenchSettings,
  logDir: string,
  log: (line: string) => void,
): Promise<ProxyOverheadResult[]> {
  const proxy = await startServer(
    serverCommand('contract-proxy', { proxyTarget: target.url }),
    logDir,
  );
  try {
    const paymentId = await waitForFirstCreate(target.url, 10_000);
    const requests: Record<Endpoint, () => OverheadRequest> = {
      create: () => ({
        method: 'POST',
        path: '/v1/payments',
        headers: { ...CREATE_HEADERS, 'idempotency-key': randomUUID() },
        body: CREATE_BODY_TEXT,
      }),
      retrieve: () => ({
        method: 'GET',
        path: `/v1/payments/${paymentId}`,
        headers: { ...RETRIEVE_HEADERS },
      }),
    };
    const results: ProxyOverheadResult[] = [];
    for (const endpoint of ['create', 'retrieve'] as const) {
      const measured = await measureProxyOverhead({
        target: target.url,
        proxy: proxy.url,
        requests: settings.proxyRequests,
        next: requests[endpoint],
      });
      results.push({ endpoint, ...measured });
    }
    for (const result of results)
      log(
        `proxy ${result.endpoint}: adds ${result.added.p50.toFixed(2)} ms p50, ${result.added.p99.toFixed(2)} ms p99 (${result.non2xx.direct + result.non2xx.proxied} non-2xx)`,
      );
    return results;
  } finally {
    await proxy.stop();
  }
}
