// Measures what the contract proxy adds to an exchange: the same requests sent straight to a target and through the proxy, interleaved, on keep-alive connections.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

/** Latency quantiles, in ms. */
export interface Quantiles {
  p50: number;
  p99: number;
}

/** The outcome of `measureProxyOverhead`. */
export interface ProxyOverhead {
  requests: number;
  direct: Quantiles;
  proxied: Quantiles;
  /** `proxied` minus `direct`, quantile by quantile: what the proxy adds. */
  added: Quantiles;
  /** Measured answers outside 2xx, per side: a refusal is never measured as speed, so any makes the run invalid. */
  non2xx: { direct: number; proxied: number };
}

/** One request the measurement sends (to both URLs alike). */
export interface OverheadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The value at quantile `q` (0..1) of sorted samples (nearest rank).
 *
 * @example
 * quantile([1, 2, 3, 4], 0.5); // 2
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

function quantiles(samples: number[]): Quantiles {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
}

/** One exchange's time and status. */
interface Sent {
  elapsed: number;
  status: number;
}

function send(base: string, agent: Agent, item: OverheadRequest, now: () => number) {
  const url = new URL(item.path, base);
  return new Promise<Sent>((resolve, reject) => {
    const started = now();
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: item.method,
        path: `${url.pathname}${url.search}`,
        headers: {
          ...item.headers,
          ...(item.body !== undefined ? { 'content-length': Buffer.byteLength(item.body) } : {}),
        },
        agent,
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ elapsed: now() - started, status: response.statusCode ?? 0 }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(item.body);
  });
}

/**
 * Sends `requests` exchanges straight to `target` and as many through `proxy`, one at a time,
 * alternating which goes first, after `warmup` of each; returns p50 and p99 of both and their
 * difference, and how many answers were not 2xx on each side. `next(index)` gives each request
 * (the same to both sides).
 *
 * @example
 * const overhead = await measureProxyOverhead({ target: mock.url, proxy: proxy.url, requests: 2000, next: () => createPayment });
 * console.log(`added p50 ${overhead.added.p50.toFixed(3)} ms, p99 ${overhead.added.p99.toFixed(3)} ms`);
 */
export async function measureProxyOverhead(options: {
  target: string;
  proxy: string;
  requests: number;
  warmup?: number;
  next: (index: number) => OverheadRequest;
  now?: () => number;
}): Promise<ProxyOverhead> {
  const now = options.now ?? (() => performance.now());
  const agents = [
    new Agent({ keepAlive: true, maxSockets: 1 }),
    new Agent({ keepAlive: true, maxSockets: 1 }),
  ] as const;
  const direct: number[] = [];
  const proxied: number[] = [];
  const warmup = options.warmup ?? Math.min(200, options.requests);
  const non2xx = { direct: 0, proxied: 0 };
  try {
    for (let index = 0; index < warmup + options.requests; index++) {
      const item = options.next(index);
      const pair: Array<['direct' | 'proxied', string, Agent]> = [
        ['direct', options.target, agents[0]],
        ['proxied', options.proxy, agents[1]],
      ];
      if (index % 2 === 1) pair.reverse();
      for (const [side, base, agent] of pair) {
        const sent = await send(base, agent, item, now);
        if (index < warmup) continue;
        (side === 'direct' ? direct : proxied).push(sent.elapsed);
        if (sent.status < 200 || sent.status > 299) non2xx[side] += 1;
      }
    }
  } finally {
    for (const agent of agents) agent.destroy();
  }
  const a = quantiles(direct);
  const b = quantiles(proxied);
  return {
    requests: options.requests,
    direct: a,
    proxied: b,
    added: { p50: b.p50 - a.p50, p99: b.p99 - a.p99 },
    non2xx,
  };
}
