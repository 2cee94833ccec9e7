import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningMockServer, startMockServer } from './node-server.js';

const AUTH = 'Authorization: Bearer sk_test_http_limits_01';

/** Opens a raw TCP connection to the server. */
function open(server: RunningMockServer): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends raw bytes and collects everything until the server closes the connection. */
async function exchange(server: RunningMockServer, raw: string): Promise<string> {
  const socket = await open(server);
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
    });
    socket.on('close', () => resolve(text));
    socket.on('error', () => {});
    // Not end(): a half-closed client would have its unanswered requests dropped.
    socket.write(raw);
  });
}

describe('the HTTP server limits', () => {
  let server: RunningMockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers a normal request while 300 clients dribble their headers', async () => {
    const running = await startMockServer({ port: 0 });
    server = running;
    const dribblers = await Promise.all(Array.from({ length: 300 }, () => open(running)));
    let closedEarly = 0;
    for (const socket of dribblers) {
      socket.on('close', () => closedEarly++);
      socket.on('error', () => {});
      socket.write('GET /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    }
    const response = await fetch(`${server.url}/v1/payments`, {
      headers: { authorization: 'Bearer sk_test_http_limits_01' },
    });
    expect(response.status).toBe(200);
    // Every dribbler was still connected when the normal request was answered.
    expect(closedEarly).toBe(0);
    for (const socket of dribblers) socket.destroy();
  });

  it('cuts a client that does not finish its headers within --headers-timeout', async () => {
    server = await startMockServer({
      port: 0,
      http: { headersTimeoutMs: 200, requestTimeoutMs: 400 },
    });
    const socket = await open(server);
    socket.on('error', () => {});
    socket.write('GET /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await new Promise((resolve) => socket.once('close', resolve));
    expect(socket.destroyed).toBe(true);
  });

  it('closes connections beyond --max-connections', async () => {
    server = await startMockServer({ port: 0, http: { maxConnections: 2 } });
    const kept = [await open(server), await open(server)];
    const extra = await open(server);
    extra.on('error', () => {});
    await new Promise((resolve) => extra.once('close', resolve));
    expect(kept.every((socket) => !socket.destroyed)).toBe(true);
    for (const socket of kept) socket.destroy();
  });

  it('answers every pipelined request, in order, when --max-pipelined holds some back', async () => {
    server = await startMockServer({ port: 0, http: { maxPipelined: 2 } });
    const requests = Array.from(
      { length: 40 },
      (_, index) =>
        `GET /v1/payments/pay_missing${index} HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\n\r\n`,
    );
    const answers = await exchange(
      server,
      `${requests.join('')}GET /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${AUTH}\r\n\r\n`,
    );
    const statuses = [...answers.matchAll(/HTTP\/1\.1 (\d{3}) [A-Z]/g)].map((match) => match[1]);
    expect(statuses).toEqual([...Array(40).fill('404'), '200']);
    const missing = [...answers.matchAll(/pay_missing(\d+)/g)].map((match) => Number(match[1]));
    expect(missing).toEqual([...new Set(missing)].sort((a, b) => a - b));
  });

  it('serves HTTP/1.0 without Host', async () => {
    server = await startMockServer({ port: 0 });
    const answer = await exchange(server, `GET /v1/payments HTTP/1.0\r\n${AUTH}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });

  it.each([
    ['HTTP/1.1 without Host', `GET /v1/payments HTTP/1.1\r\n${AUTH}\r\nConnection: close\r\n\r\n`],
    [
      'a malformed Host',
      `GET /v1/payments HTTP/1.1\r\nHost: a b@c\r\n${AUTH}\r\nConnection: close\r\n\r\n`,
    ],
    ['a request Node cannot parse', 'GARBAGE\r\n\r\n'],
    [
      'a request line and headers over --max-header-size (8 KiB)',
      `POST /v1/payments/pay_${'x'.repeat(15_000)}/capture HTTP/1.1\r\nHost: x\r\n${AUTH}\r\nConnection: close\r\n\r\n`,
    ],
  ])('answers %s with a problem+json 400 and a Request-Id', async (_, raw) => {
    server = await startMockServer({ port: 0 });
    const answer = await exchange(server, raw);
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toMatch(/content-type: application\/problem\+json/i);
    expect(answer).toMatch(/request-id: req_/i);
    expect(answer).toContain('"code":"invalid_request"');
  });

  it('lets a request in flight finish when closed with a grace period', async () => {
    server = await startMockServer({ port: 0 });
    const body = JSON.stringify({
      amount: 1000,
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_success' },
    });
    const socket = await open(server);
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
    });
    const ended = new Promise((resolve) => socket.once('close', resolve));
    socket.write(
      `POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\nContent-Type: application/json\r\n` +
        `Idempotency-Key: grace-1\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // "100 Continue" comes once the server has taken the request in.
    await new Promise<void>((resolve) => {
      const check = () => {
        if (answer.includes('100 Continue')) resolve();
        else socket.once('data', check);
      };
      check();
    });
    answer = '';
    const closing = server.close({ graceMs: 10_000 });
    server = undefined;
    socket.write(body);
    await closing;
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 201/);
  });
});
