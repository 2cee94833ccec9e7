// Issue 31, the mock's network edges: a key's webhook never rides the operator's connection, a
// sandbox reachable from the network keeps keys off its loopback, and the small policy and
// framing gaps (IPv4-compatible IPv6, an empty Host, an unreadable Transfer-Encoding) are closed.
import dns from 'node:dns';
import { createServer, type Server } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import type { AddressInfo } from 'node:net';
import { generateWebhookSecret } from '@payment-service/mock';
import { type RunningMockServer, startMockServer } from '@payment-service/mock/node';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRawAnswer, rawExchange } from './attacks/sockets.js';
import { call, paymentBody } from './http.js';
import { useSandbox } from './test-support/use-sandbox.js';

const KEY = 'sk_test_reliability_network_edges';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A keep-alive receiver on 127.0.0.1 that records the path of every POST it answers. */
async function pathRecorder(): Promise<{ port: number; paths: string[] }> {
  const paths: string[] = [];
  const server: Server = createServer((request, response) => {
    paths.push(request.url ?? '');
    request.resume();
    request.on('end', () => response.end('received'));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as AddressInfo).port, paths };
}

/**
 * Makes `name` resolve, in this process, to 127.0.0.1 the first time and to a private address
 * after (a name that rebinds); every other name resolves as before.
 */
function rebindingName(name: string): void {
  const original = dns.lookup;
  let lookups = 0;
  const fake = ((hostname: string, options: unknown, callback: unknown) => {
    if (hostname !== name)
      return (original as (...args: unknown[]) => void)(hostname, options, callback);
    lookups++;
    const address = lookups === 1 ? '127.0.0.1' : '10.0.0.1';
    const done = (typeof options === 'function' ? options : callback) as (
      ...args: unknown[]
    ) => void;
    const all = typeof options === 'object' && options !== null && 'all' in options && options.all;
    process.nextTick(() => (all ? done(null, [{ address, family: 4 }]) : done(null, address, 4)));
  }) as typeof dns.lookup;
  dns.lookup = fake;
  syncBuiltinESMExports();
  cleanups.push(() => {
    dns.lookup = original;
    syncBuiltinESMExports();
  });
}

async function inProcess(
  options: Parameters<typeof startMockServer>[0],
): Promise<RunningMockServer> {
  const server = await startMockServer({ port: 0, hostname: '127.0.0.1', ...options });
  cleanups.push(() => server.close());
  return server;
}

describe("row 12: a key's webhook never rides the operator's connection", () => {
  it('refuses a key endpoint on the operator host name once it resolves to a private address', async () => {
    const receiver = await pathRecorder();
    const name = 'operator-receiver.reliability.test';
    rebindingName(name);
    const server = await inProcess({
      webhookUrl: `http://${name}:${receiver.port}/operator`,
      webhookSecret: generateWebhookSecret(),
      webhookTimeoutMs: 2000,
    });
    // The operator's URL gets the first event: its keep-alive socket to 127.0.0.1 stays pooled.
    const first = await call(server.url, {
      path: '/v1/payments',
      key: KEY,
      body: paymentBody(500),
    });
    expect(first.status).toBe(201);
    await server.webhooksSettled();
    expect(receiver.paths).toEqual(['/operator']);

    const endpoint = await call(server.url, {
      path: '/v1/webhook_endpoints',
      key: KEY,
      body: { url: `http://${name}:${receiver.port}/admin/anything` },
    });
    expect(endpoint.status, endpoint.text.slice(0, 300)).toBe(201);
    const second = await call(server.url, {
      path: '/v1/payments',
      key: KEY,
      body: paymentBody(700),
    });
    expect(second.status).toBe(201);
    await server.webhooksSettled();

    // Before: the key's attempt took the pooled socket, and /admin/anything was delivered.
    expect(receiver.paths).not.toContain('/admin/anything');
    const log = await call(server.url, { path: '/_sandbox/webhook_deliveries', key: KEY });
    const attempts = (log.json?.data ?? []) as Array<{
      url: string;
      status: number | null;
      error: string | null;
    }>;
    const keyAttempts = attempts.filter((attempt) => attempt.url.includes('/admin/anything'));
    expect(keyAttempts.length).toBeGreaterThan(0);
    for (const attempt of keyAttempts) {
      expect(attempt.status).toBeNull();
      expect(attempt.error).toMatch(/10\.0\.0\.1, a private network address/);
    }
  });
});

describe('row 13: a sandbox reachable from the network keeps keys off its loopback', () => {
  it.each([
    'http://127.0.0.1:22/',
    'http://127.8.9.10/',
    'http://localhost:6379/',
    'http://api.localhost/',
    'http://[::1]:5432/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://0x7f.1/',
    'http://2130706433/',
  ])('refuses %s with a 400 on url naming the rule', async (url) => {
    // What `--host 0.0.0.0` sets; the test's sandbox still listens on 127.0.0.1 only.
    const server = await inProcess({ allowLoopbackWebhookUrls: false });
    const answer = await call(server.url, {
      path: '/v1/webhook_endpoints',
      key: KEY,
      body: { url },
    });
    expect(answer.status, answer.text.slice(0, 300)).toBe(400);
    expect(answer.json?.param).toBe('url');
    expect(answer.text).toContain("this machine's loopback");
    const list = await call(server.url, { path: '/v1/webhook_endpoints', key: KEY });
    expect(list.json?.data).toEqual([]);
  });
});

describe('row 14: small policy and framing gaps, on the built CLI', () => {
  const fx = useSandbox(['--quiet']);

  it.each([
    ['http://[::a9fe:a9fe]/latest/meta-data/', /link-local/],
    ['http://[::169.254.169.254]/', /link-local/],
    ['http://[::10.0.0.1]/', /private network/],
  ])('refuses the IPv4-compatible IPv6 endpoint %s by the IPv4 it embeds', async (url, words) => {
    const answer = await call(fx.sandbox.url, {
      path: '/v1/webhook_endpoints',
      key: KEY,
      body: { url },
    });
    expect(answer.status, answer.text.slice(0, 300)).toBe(400);
    expect(answer.json?.param).toBe('url');
    expect(answer.text).toMatch(words);
  });

  it('answers an empty Host with a 400 problem, not the API', async () => {
    const raw = await rawExchange(
      fx.sandbox.port,
      `GET /v1/payments HTTP/1.1\r\nHost: \r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
    );
    const answer = parseRawAnswer(raw);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: 'invalid_request', param: 'Host' });
    expect(answer.headers['request-id']).toMatch(/^req_/);
  });

  it('answers Transfer-Encoding: xchunked with a 400 problem before it closes the connection', async () => {
    const raw = await rawExchange(
      fx.sandbox.port,
      `POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    );
    const answer = parseRawAnswer(raw);
    expect(answer.status, raw.slice(0, 200)).toBe(400);
    expect(answer.json).toMatchObject({ code: 'invalid_request', param: 'Transfer-Encoding' });
    expect(answer.headers.connection).toBe('close');
  });
});
