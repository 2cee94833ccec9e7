// The forwarding half on real loopback servers: streams both ways, to the target's origin only, hop-by-hop headers dropped, no redirect followed, sk_live_ keys refused before anything is sent.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type CapturedExchange, startForwardingProxy } from './forward.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function serve(
  handler: Parameters<typeof createServer>[1],
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    handler?.(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** Told of every exchange a proxy of `proxyTo` hands on. */
const handed = new EventTarget();

/**
 * Resolves once `captured` holds `count` exchanges: the proxy hands one on after the answer has
 * ended, so a test that has read the answer waits for this (not for a guessed number of ms).
 */
async function handedOn(captured: CapturedExchange[], count = 1): Promise<void> {
  while (captured.length < count) {
    await new Promise((resolve) => handed.addEventListener('exchange', resolve, { once: true }));
  }
}

async function proxyTo(target: string, captured: CapturedExchange[] = [], maxBodyBytes?: number) {
  const proxy = await startForwardingProxy({
    target,
    onExchange: (exchange) => {
      captured.push(exchange);
      exchange.release();
      handed.dispatchEvent(new Event('exchange'));
    },
    ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
  });
  closers.push(() => proxy.close());
  return proxy;
}

/** A raw HTTP/1.1 exchange over a socket: what a client that is not fetch can send. */
function raw(url: string, text: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('the forwarding proxy', () => {
  it('streams an answer to the app before the target has finished it', async () => {
    let finish = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const target = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('first;');
      void finished.then(() => response.end('second'));
    });
    const captured: CapturedExchange[] = [];
    const proxy = await proxyTo(target.url, captured);
    const answer = await fetch(`${proxy.url}/v1/payments`);
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    // The target has not ended the body: the proxy passed on what it had.
    expect(new TextDecoder().decode(first.value)).toBe('first;');
    finish();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toBe('second');
    await handedOn(captured);
    expect(captured[0]?.responseBody.toString()).toBe('first;second');
  });

  it('streams a request body to the target as the app sends it, past the live-key window', async () => {
    let firstChunk = () => {};
    const gotFirst = new Promise<void>((resolve) => {
      firstChunk = resolve;
    });
    const target = await serve((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        firstChunk();
      });
      request.on('end', () => response.end(Buffer.concat(chunks)));
    });
    const proxy = await proxyTo(target.url);
    const { port } = new URL(proxy.url);
    const answer = new Promise<string>((resolve) => {
      const outgoing = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/payments',
          headers: { 'content-type': 'application/json' },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk) => {
            text += chunk;
          });
          response.on('end', () => resolve(text));
        },
      );
      // Past the live-key scanner's window (1 KiB held back), the target reads the body while the app is still sending it.
      outgoing.write(`{"note":"${'x'.repeat(4096)}",`);
      void gotFirst.then(() => outgoing.end('"amount":100}'));
    });
    expect(await answer).toBe(`{"note":"${'x'.repeat(4096)}","amount":100}`);
  });

  it('forwards to the target origin and base path only, Host set to the target, hop-by-hop headers dropped', async () => {
    const target = await serve((_request, response) => response.end('ok'));
    const proxy = await proxyTo(`${target.url}/base`);
    // undici will not send a Connection header: a raw client does.
    await raw(
      proxy.url,
      [
        'GET /v1/payments?limit=3 HTTP/1.1',
        'Host: proxy.local',
        'Connection: close, x-named-hop',
        'X-Named-Hop: dropped',
        'Proxy-Authorization: Basic dropped',
        'TE: trailers',
        'X-Kept: kept',
        'Authorization: Bearer sk_test_passes_through_1',
        '',
        '',
      ].join('\r\n'),
    );
    // A path that looks like a network path stays a path on the target.
    await fetch(`${proxy.url}//elsewhere.example/v1/payments`);
    expect(target.seen.map((seen) => seen.url)).toEqual([
      '/base/v1/payments?limit=3',
      '/base//elsewhere.example/v1/payments',
    ]);
    const headers = target.seen[0]?.headers ?? {};
    expect(headers.host).toBe(new URL(target.url).host);
    expect(headers['x-kept']).toBe('kept');
    expect(headers.authorization).toBe('Bearer sk_test_passes_through_1');
    for (const name of ['x-named-hop', 'proxy-authorization', 'te'])
      expect(headers[name]).toBeUndefined();
  });

  it('refuses an absolute-form request target to another host: nothing reaches the target', async () => {
    const target = await serve((_request, response) => response.end('ok'));
    const elsewhere = await serve((_request, response) => response.end('elsewhere'));
    const proxy = await proxyTo(target.url);
    const answer = await raw(
      proxy.url,
      `GET ${elsewhere.url}/v1/payments HTTP/1.1\r\nHost: ${new URL(elsewhere.url).host}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('absolute_form_refused');
    expect(target.seen).toEqual([]);
    expect(elsewhere.seen).toEqual([]);
  });

  it.each([
    '/../../etc/passwd',
    '/v1/%2e%2e/%2e%2e/etc/passwd',
    '/v1/..%5c..%5cetc/passwd',
    '/v1\\..\\..\\etc/passwd',
  ])(
    'refuses %s, which would leave the base path: 400, nothing reaches the target',
    async (path) => {
      const target = await serve((_request, response) => response.end('ok'));
      const proxy = await proxyTo(`${target.url}/base`);
      const answer = await raw(
        proxy.url,
        `GET ${path} HTTP/1.1\r\nHost: proxy.local\r\nConnection: close\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('application/problem+json');
      expect(answer).toContain('path_outside_base');
      expect(target.seen).toEqual([]);
    },
  );

  it('follows no redirect: the 3xx reaches the app as the target sent it', async () => {
    const elsewhere = await serve((_request, response) => response.end('elsewhere'));
    const target = await serve((_request, response) => {
      response.writeHead(302, { location: `${elsewhere.url}/v1/payments` });
      response.end();
    });
    const proxy = await proxyTo(target.url);
    const answer = await fetch(`${proxy.url}/v1/payments`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(`${elsewhere.url}/v1/payments`);
    expect(target.seen).toHaveLength(1);
    expect(elsewhere.seen).toEqual([]);
  });

  it('refuses an sk_live_ key with a 403 problem and forwards nothing', async () => {
    const target = await serve((_request, response) => response.end('ok'));
    const refused: string[] = [];
    const proxy = await startForwardingProxy({
      target: target.url,
      onExchange: (exchange) => exchange.release(),
      onRefused: (reason) => refused.push(reason),
    });
    closers.push(() => proxy.close());
    const answer = await fetch(`${proxy.url}/v1/payments`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer sk_live_real_money_key_1',
        'content-type': 'application/json',
      },
      body: '{"amount":100}',
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await answer.json()) as { code: string; detail: string };
    expect(problem.code).toBe('live_key_refused');
    expect(JSON.stringify(problem)).not.toContain('real_money');
    expect(target.seen).toEqual([]);
    expect(refused).toEqual(['live-key']);
  });

  it.each([
    ['a percent-encoded query value', '/v1/payments?key=sk%5Flive_abc12345', {}, undefined],
    ['a percent-encoded path segment', '/v1/%73k_live_abc12345', {}, undefined],
    [
      'Basic credentials with text after them',
      '/v1/payments',
      { authorization: `Basic ${Buffer.from('sk_live_abc12345:').toString('base64')} extra` },
      undefined,
    ],
    ['an X-Api-Key header', '/v1/payments', { 'x-api-key': 'sk_live_abc12345' }, undefined],
    ['a cookie', '/v1/payments', { cookie: 'theme=dark; key=sk_live_abc12345' }, undefined],
    [
      'a JSON body',
      '/v1/payments',
      { 'content-type': 'application/json' },
      '{"key":"sk_live_abc12345"}',
    ],
    [
      'a JSON body with escapes',
      '/v1/payments',
      { 'content-type': 'application/json' },
      '{"key":"sk\\u005flive_abc12345"}',
    ],
    [
      'a body past the first chunks',
      '/v1/payments',
      { 'content-type': 'application/json' },
      `{"pad":"${'x'.repeat(200_000)}","key":"sk_live_abc12345"}`,
    ],
  ])(
    'refuses a live key in %s: 403, nothing of it reaches the target',
    async (_form, path, extra, body) => {
      const received: string[] = [];
      const target = await serve((request, response) => {
        request.on('data', (chunk: Buffer) => received.push(chunk.toString('latin1')));
        request.on('end', () => response.end('ok'));
      });
      const refused: string[] = [];
      const captured: CapturedExchange[] = [];
      const proxy = await startForwardingProxy({
        target: target.url,
        onExchange: (exchange) => {
          captured.push(exchange);
          exchange.release();
        },
        onRefused: (reason) => refused.push(reason),
      });
      closers.push(() => proxy.close());
      const answer = await fetch(`${proxy.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: extra,
        ...(body !== undefined ? { body } : {}),
      });
      expect(answer.status).toBe(403);
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      expect(((await answer.json()) as { code: string }).code).toBe('live_key_refused');
      await new Promise((resolve) => setImmediate(resolve));
      expect(received.join('')).not.toContain('sk_live_');
      // A body key is seen as the body passes: at most the bytes before it reached the target, never a whole request.
      expect(target.seen.length === 0 || received.join('').length < 200_000).toBe(true);
      expect(refused).toEqual(['live-key']);
      expect(captured).toEqual([]);
      expect(proxy.bufferedBytes).toBe(0);
    },
  );

  it('forwards a test key in every one of those places', async () => {
    const target = await serve((request, response) => {
      request.resume();
      request.on('end', () => response.end('ok'));
    });
    const proxy = await proxyTo(target.url);
    const answer = await fetch(`${proxy.url}/v1/%73k_test_abc12345?key=sk%5Ftest_abc`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk_test_abc12345', cookie: 'key=sk_test_abc12345' },
      body: '{"key":"sk\\u005ftest_abc12345"}',
    });
    expect(answer.status).toBe(200);
    expect(target.seen).toHaveLength(1);
  });

  it('forwards a body over the cap whole and copies only the cap', async () => {
    const target = await serve((request, response) => {
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
      });
      request.on('end', () => response.end(String(size)));
    });
    const captured: CapturedExchange[] = [];
    const proxy = await proxyTo(target.url, captured, 1024);
    const answer = await fetch(`${proxy.url}/v1/payments`, {
      method: 'POST',
      body: 'x'.repeat(100_000),
    });
    expect(await answer.text()).toBe('100000');
    await handedOn(captured);
    expect(captured[0]?.requestBytes).toBe(100_000);
    expect(captured[0]?.requestBody.byteLength).toBe(1024);
    expect(proxy.bufferedBytes).toBe(0);
  });

  it('answers 502 when the target cannot be reached, and hands on the exchange', async () => {
    const gone = await serve(() => {});
    const url = gone.url;
    await closers.pop()?.();
    const captured: CapturedExchange[] = [];
    const proxy = await proxyTo(url, captured);
    const answer = await fetch(`${proxy.url}/v1/payments`);
    expect(answer.status).toBe(502);
    await handedOn(captured);
    expect(captured[0]?.noAnswer).toBe('ECONNREFUSED');
  });
});
