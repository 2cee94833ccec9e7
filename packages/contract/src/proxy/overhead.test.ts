import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { measureProxyOverhead, quantile } from './overhead.js';

const servers: Server[] = [];

async function serve(status: (path: string) => number): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(status(request.url ?? '/')).end('{}'));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

describe('quantile', () => {
  it('takes the nearest rank, and NaN of no samples', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.99)).toBe(4);
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe('measureProxyOverhead', () => {
  it('counts the answers outside 2xx on each side, so a refusal is never measured as speed', async () => {
    const direct = await serve(() => 201);
    const refusing = await serve((path) => (path === '/v1/payments?n=3' ? 503 : 201));
    let tick = 0;
    const result = await measureProxyOverhead({
      target: direct,
      proxy: refusing,
      requests: 5,
      warmup: 1,
      // Injected time: each reading is 1 ms after the last.
      now: () => tick++,
      next: (index) => ({
        method: 'POST',
        path: `/v1/payments?n=${index}`,
        headers: {},
        body: '{}',
      }),
    });
    expect(result.requests).toBe(5);
    expect(result.non2xx).toEqual({ direct: 0, proxied: 1 });
    // Each exchange reads the clock twice in a row: 1 ms on both sides, so nothing is added.
    expect(result.direct).toEqual({ p50: 1, p99: 1 });
    expect(result.added).toEqual({ p50: 0, p99: 0 });
  });

  it('leaves the warm-up out of the counts', async () => {
    const refusing = await serve((path) => (path.endsWith('n=0') ? 500 : 200));
    const result = await measureProxyOverhead({
      target: refusing,
      proxy: refusing,
      requests: 2,
      warmup: 1,
      next: (index) => ({ method: 'GET', path: `/v1/payments?n=${index}`, headers: {} }),
    });
    expect(result.non2xx).toEqual({ direct: 0, proxied: 0 });
  });
});
