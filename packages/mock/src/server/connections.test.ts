// The connection table over real sockets: fair slots at the cap, unread answers bounded and timed out.
import { EventEmitter } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createConnections } from './connections.js';
import { type RunningMockServer, startMockServer } from './node-server.js';

const KEY_A = 'sk_test_connections_a1';
const KEY_B = 'sk_test_connections_b1';

function open(server: RunningMockServer): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

const closed = (socket: Socket) =>
  new Promise<void>((resolve) => {
    if (socket.destroyed) resolve();
    else socket.once('close', () => resolve());
  });

/** Sends one request and resolves with the first chunk of its answer (the status line and more). */
function ask(socket: Socket, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    socket.once('data', (chunk) => resolve(chunk.toString('utf8')));
    socket.once('error', reject);
    socket.write(raw);
  });
}

const list = (key: string) =>
  `GET /v1/payments?limit=100 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`;
/** A create whose body never arrives in full: the request stays in flight. */
const stuckCreate = (key: string) =>
  `POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"amount":`;

describe('connection slots at the cap', () => {
  let server: RunningMockServer | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await server?.close();
    server = undefined;
  });

  it('gives a new connection the slot of the connection idle the longest', async () => {
    const running = await startMockServer({ port: 0, http: { maxConnections: 2 } });
    server = running;
    const first = await open(running);
    const second = await open(running);
    sockets.push(first, second);
    expect(await ask(first, list(KEY_A))).toMatch(/^HTTP\/1\.1 200/);
    expect(await ask(second, list(KEY_A))).toMatch(/^HTTP\/1\.1 200/);
    const newcomer = await open(running);
    sockets.push(newcomer);
    await closed(first);
    expect(await ask(newcomer, list(KEY_B))).toMatch(/^HTTP\/1\.1 200/);
    expect(second.destroyed).toBe(false);
  });

  it("takes the slot of a key holding more than an equal share, not another key's", async () => {
    const running = await startMockServer({ port: 0, http: { maxConnections: 4 } });
    server = running;
    const holderB = await open(running);
    sockets.push(holderB);
    holderB.write(stuckCreate(KEY_B));
    const hog: Socket[] = [];
    for (let index = 0; index < 3; index++) {
      const socket = await open(running);
      socket.on('error', () => {});
      socket.write(stuckCreate(KEY_A));
      hog.push(socket);
    }
    sockets.push(...hog);
    // Every request is in flight (its body never ends): no connection is idle.
    await new Promise((resolve) => setImmediate(resolve));
    const newcomer = await open(running);
    sockets.push(newcomer);
    await closed(hog[0] as Socket);
    expect(await ask(newcomer, list(KEY_B))).toMatch(/^HTTP\/1\.1 200/);
    expect(holderB.destroyed).toBe(false);
  });
});

describe('answers a client does not read', () => {
  let server: RunningMockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('closes a connection whose answers stay unread past the write timeout', {
    timeout: 30_000,
  }, async () => {
    const running = await startMockServer({
      port: 0,
      http: { maxUnsentBytes: 16_384, writeTimeoutMs: 200 },
    });
    server = running;
    const description = 'd'.repeat(1000);
    for (let index = 0; index < 100; index++) {
      const created = await fetch(`${running.url}/v1/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          amount: 100,
          currency: 'KZT',
          description,
          payment_method: { type: 'token', token: 'tok_test_success' },
        }),
      });
      expect(created.status).toBe(201);
    }
    const reader = await open(running);
    reader.on('error', () => {});
    reader.pause();
    // ~110 KB an answer, never read: far more than the kernel's buffers hold. The client keeps
    // writing requests, so it sees the server close the connection on its writing side.
    const requests = list(KEY_A).repeat(50);
    const send = () => {
      while (!reader.destroyed && reader.write(requests));
    };
    reader.on('drain', send);
    send();
    await closed(reader);
    expect(reader.destroyed).toBe(true);
    // The server still answers everyone else.
    const other = await fetch(`${running.url}/v1/payments?limit=1`, {
      headers: { authorization: `Bearer ${KEY_B}` },
    });
    expect(other.status).toBe(200);
  });
});

describe('requests that wait their turn', () => {
  it('are dropped, not counted in flight, when their connection closes first', async () => {
    const socket = Object.assign(new EventEmitter(), {
      destroyed: false,
      writableLength: 0,
      pause() {},
      resume() {},
    });
    const connections = createConnections({
      maxConnections: 10,
      maxPipelined: 1,
      maxUnsentBytes: 1024,
      writeTimeoutMs: 1000,
    });
    connections.accept(socket as unknown as Socket);
    const request = { socket, headers: { authorization: `Bearer ${KEY_A}` } };
    const first = new EventEmitter();
    const second = new EventEmitter();
    const started: string[] = [];
    const admit = (response: InstanceType<typeof EventEmitter>, name: string) =>
      connections.admit(request as never, response as never, () => started.push(name));
    admit(first, 'first');
    admit(second, 'second');
    expect(started).toEqual(['first']);
    socket.destroyed = true;
    socket.emit('close');
    first.emit('close');
    // The second never starts, and the table is drained: a graceful stop need not wait for it.
    await connections.drained();
    expect(started).toEqual(['first']);
  });
});
