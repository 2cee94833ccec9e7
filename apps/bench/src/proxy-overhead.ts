// The contract proxy's cost per exchange: the same creates and retrieves sent straight to the mock and through a proxy in front of it, one at a time, interleaved; the bare forwarding floor measured the same way shows what one more hop costs.
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

/** Which proxy: ours, or the bare node:http forwarder (the floor). */
export type ProxyKind = 'contract-proxy' | 'forward-floor';

/** A proxy's cost on one endpoint. */
export interface ProxyOverheadResult extends ProxyOverhead {
  proxy: ProxyKind;
  endpoint: Endpoint;
}

/** The targets for what the contract proxy adds per exchange, in ms. */
export const PROXY_OVERHEAD_TARGETS = { p50: 1, p99: 3 } as const;

/**
 * Starts each proxy in turn in front of `target` (our mock) and measures what it adds to a create
 * and to a retrieve: `settings.proxyRequests` exchanges of each, straight and proxied in turn.
 *
 * @example
 * const results = await measureProxyCost(mockQuiet, settingsFor('full'), logDir, console.error);
 * results.find((row) => row.proxy === 'contract-proxy')?.added.p50; // ms ours adds at the median
 */
export async function measureProxyCost(
  target: RunningServer,
  settings: BenchSettings,
  logDir: string,
  log: (line: string) => void,
): Promise<ProxyOverheadResult[]> {
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
  for (const kind of ['contract-proxy', 'forward-floor'] as const) {
    const proxy = await startServer(serverCommand(kind, { proxyTarget: target.url }), logDir);
    try {
      for (const endpoint of ['create', 'retrieve'] as const) {
        const measured = await measureProxyOverhead({
          target: target.url,
          proxy: proxy.url,
          requests: settings.proxyRequests,
          next: requests[endpoint],
        });
        results.push({ proxy: kind, endpoint, ...measured });
        log(
          `${kind} ${endpoint}: adds ${measured.added.p50.toFixed(2)} ms p50, ${measured.added.p99.toFixed(2)} ms p99 (${measured.non2xx.direct + measured.non2xx.proxied} non-2xx)`,
        );
      }
    } finally {
      await proxy.stop();
    }
  }
  return results;
}
