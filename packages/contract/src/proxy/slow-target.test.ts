// One slow target does not starve every client: a target that trickles 1 byte a second, behind the forwarding proxy, on loopback; the exchange's time limit fired by injected time.
import { type IncomingMessage, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServer as createTcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type CapturedExchange, type ForwardingOptions, startForwardingProxy } from './forward.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/**
 * A target that answers `/fast` at once and trickles anything else 1 byte a second: its head
 * (`trickle: 'head'`) or, after a whole head, its body. Bounded: 60 bytes a connection at most.
 */
async function slowTarget(trickle: 'head' | 'body') {
  const sockets = new Set<Socket>();
  let slowSeen = 0;
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      if (head.startsWith('GET /fast')) {
        socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 4\r\n\r\nfast');
        return;
      }
      slowSeen += 1;
      let text = 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 60\r\n\r\n';
      if (trickle === 'body') {
        socket.write(text);
        text = 'x'.repeat(60);
      }
      let sent = 0;
      const drip = () => {
        if (sent < 60 && !socket.destroyed) socket.write(text.slice(sent, ++sent));
      };
      drip();
      const timer = setInterval(drip, 1000);
      timer.unref();
      socket.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get slowSeen() {
      return slowSeen;
    },
  };
}

/** Injected time: the timers the proxy set, fired by the test. */
function fakeTime() {
  const timers = new Set<() => void>();
  return {
    schedule: (_ms: number, fire: () => void) => {
      timers.add(fire);
      return () => timers.delete(fire);
    },
    fireAll() {
      for (const fire of [...timers]) {
        timers.delete(fire);
        fire();
      }
    },
    get pending() {
      return timers.size;
    },
  };
}

async function proxyTo(target: string, extra: Partial<ForwardingOptions> = {}) {
  const captured: CapturedExchange[] = [];
  const proxy = await startForwardingProxy({
    target,
    onExchange: (exchange) => {
      captured.push(exchange);
      exchange.release();
    },
    ...extra,
  });
  closers.push(() => proxy.close());
  return { proxy, captured };
}

/** A GET with its own connection; resolves with the status, content type and body once it ends (or fails). */
function get(url: string, key: string) {
  return new Promise<{ status: number; type: string; body: string }>((resolve) => {
    const outgoing = request(url, { headers: { authorization: `Bearer ${key}` }, agent: false });
    outgoing.on('response', (answer: IncomingMessage) => {
      let body = '';
      answer.on('data', (chunk) => {
        body += chunk;
      });
      answer.on('end', () =>
        resolve({
          status: answer.statusCode ?? 0,
          type: String(answer.headers['content-type']),
          body,
        }),
      );
      answer.on('error', () => resolve({ status: answer.statusCode ?? 0, type: '', body: 'cut' }));
    });
    outgoing.on('error', () => resolve({ status: 0, type: '', body: 'cut' }));
    outgoing.end();
  });
}

describe('a target that trickles 1 byte a second', () => {
  it('300 slow requests from one client leave the pool to another client, at the default share', async () => {
    const target = await slowTarget('head');
    const time = fakeTime();
    const { proxy } = await proxyTo(target.url, { schedule: time.schedule });
    const slow = Array.from({ length: 300 }, (_, index) =>
      get(`${proxy.url}/v1/slow/${index}`, 'sk_test_flooding_client_1'),
    );
    let slowEnded = 0;
    for (const answer of slow) void answer.then(() => slowEnded++);
    // The other client comes once the flood holds its share of the target's connections.
    for (let turn = 0; target.slowSeen < 128 && turn < 2000; turn++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const fast = await get(`${proxy.url}/fast`, 'sk_test_other_client_1');
    expect(fast).toMatchObject({ status: 200, body: 'fast' });
    expect(slowEnded).toBe(0);
    // The flooding client had half the pool at most.
    expect(target.slowSeen).toBeLessThanOrEqual(128);
    time.fireAll();
    const ended = await Promise.all(slow);
    expect(new Set(ended.map((answer) => answer.status))).toEqual(new Set([504]));
  });

  it('answers 504 problem+json when the head does not come in time, and hands on the exchange', async () => {
    const target = await slowTarget('head');
    const time = fakeTime();
    const { proxy, captured } = await proxyTo(target.url, {
      schedule: time.schedule,
      upstreamTimeoutMs: 5000,
    });
    const answer = get(`${proxy.url}/v1/payments`, 'sk_test_slow_head_1');
    for (let turn = 0; target.slowSeen === 0 && turn < 2000; turn++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    time.fireAll();
    const ended = await answer;
    expect(ended.status).toBe(504);
    expect(ended.type).toBe('application/problem+json');
    expect(JSON.parse(ended.body)).toMatchObject({ status: 504, code: 'target_timeout' });
    expect(ended.body).toContain('5000 ms');
    await new Promise((resolve) => setImmediate(resolve));
    expect(captured[0]?.noAnswer).toContain('no answer within 5000 ms');
    expect(proxy.bufferedBytes).toBe(0);
  });

  it('cuts an answer whose body does not end in time', async () => {
    const target = await slowTarget('body');
    const time = fakeTime();
    const { proxy, captured } = await proxyTo(target.url, { schedule: time.schedule });
    const { port } = new URL(proxy.url);
    const ended = await new Promise<string>((resolve) => {
      const outgoing = request({ host: '127.0.0.1', port, path: '/v1/payments', agent: false });
      outgoing.on('response', (answer) => {
        answer.on('data', () => time.fireAll());
        answer.on('error', () => resolve('cut'));
        answer.on('aborted', () => resolve('cut'));
        answer.on('end', () => resolve('ended'));
      });
      outgoing.on('error', () => resolve('cut'));
      outgoing.end();
    });
    expect(ended).toBe('cut');
    await new Promise((resolve) => setImmediate(resolve));
    expect(captured[0]?.noAnswer).toContain('no answer within');
  });

  it('answers 503 problem+json past a client’s waiting bound', async () => {
    const target = await slowTarget('head');
    const time = fakeTime();
    const { proxy } = await proxyTo(target.url, {
      schedule: time.schedule,
      share: { maxInFlight: 2, maxPerClient: 1, maxWaitingPerClient: 1 },
    });
    const first = get(`${proxy.url}/v1/a`, 'sk_test_bounded_1');
    const second = get(`${proxy.url}/v1/b`, 'sk_test_bounded_1');
    const third = await get(`${proxy.url}/v1/c`, 'sk_test_bounded_1');
    expect(third.status).toBe(503);
    expect(JSON.parse(third.body)).toMatchObject({ code: 'proxy_busy' });
    time.fireAll();
    expect((await first).status).toBe(504);
    expect((await second).status).toBe(504);
    expect(time.pending).toBe(0);
  });
});
