// Socket-level attacks: pipelined requests whose answers are never read, headers or bodies dribbled a byte at a time.
import { connect, type Socket } from 'node:net';
import { createChanges } from '../changes.js';

/** Sockets an attack holds open; `close` destroys them. */
export interface HeldSockets {
  sockets: Socket[];
  /** How many of them the server closed (ended or reset) so far. */
  closedByServer(): number;
  /** Resolves once the server has closed at least `count` of them. */
  untilClosedByServer(count: number): Promise<void>;
  close(): void;
}

function open(port: number, onServerClose: () => void): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => resolve(socket));
    socket.once('error', reject);
    socket.on('close', onServerClose);
  });
}

/**
 * Sockets to `port` that an attack opens one by one and holds: `open` connects one (paused:
 * never read) and counts it in `held`, which tells how many the server closed.
 *
 * @example
 * const { held, open } = socketsTo(port);
 * (await open({ paused: true })).write(request);
 * held.close();
 */
export function socketsTo(port: number): {
  held: HeldSockets;
  open(options: { paused: boolean }): Promise<Socket>;
} {
  const { held, sockets, serverClosed } = heldSockets();
  return {
    held,
    async open({ paused }) {
      const socket = await open(port, serverClosed);
      socket.on('error', () => {});
      if (paused) socket.pause();
      sockets.push(socket);
      return socket;
    },
  };
}

/** Counts the sockets the server closes (not those `close()` destroys) and hands them out. */
function heldSockets(onClose: () => void = () => {}) {
  let closed = 0;
  let closing = false;
  const changes = createChanges();
  const sockets: Socket[] = [];
  const held: HeldSockets = {
    sockets,
    closedByServer: () => closed,
    untilClosedByServer: (count) => changes.until(() => closed >= count),
    close() {
      closing = true;
      onClose();
      for (const socket of sockets) socket.destroy();
    },
  };
  const serverClosed = () => {
    if (closing) return;
    closed++;
    changes.notify();
  };
  return { held, sockets, serverClosed };
}

/**
 * Opens `sockets` connections and writes `requestsPerSocket` pipelined GETs on each, sent in
 * one burst per socket and never reading an answer (the socket is paused).
 *
 * @example
 * const held = await pipelineUnread(port, key, { sockets: 4, requestsPerSocket: 20_000 });
 * held.close();
 */
export async function pipelineUnread(
  port: number,
  key: string,
  size: { sockets: number; requestsPerSocket: number },
): Promise<HeldSockets> {
  const { held, sockets, serverClosed } = heldSockets();
  const request =
    `GET /v1/payments?limit=100 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
    `Authorization: Bearer ${key}\r\n\r\n`;
  const burst = request.repeat(size.requestsPerSocket);
  for (let index = 0; index < size.sockets; index++) {
    const socket = await open(port, serverClosed);
    socket.on('error', () => {});
    socket.pause();
    socket.write(burst);
    sockets.push(socket);
  }
  return held;
}

/**
 * Opens `sockets` connections that dribble one byte every `intervalMs` and never finish:
 * `headers` sends a request line and then one header byte at a time; `body` sends a create's
 * whole head (with `key`, `Content-Length: 1000`) and then its body one space at a time.
 *
 * @example
 * const slow = await dribble(port, { sockets: 300, intervalMs: 500, part: 'headers' });
 * slow.closedByServer(); // how many the server has cut
 */
export async function dribble(
  port: number,
  size: { sockets: number; intervalMs: number; part: 'headers' | 'body'; key?: string },
): Promise<HeldSockets> {
  let timer: ReturnType<typeof setInterval> | undefined;
  const { held, sockets, serverClosed } = heldSockets(() => clearInterval(timer));
  const head =
    size.part === 'headers'
      ? 'GET /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '
      : `POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${size.key ?? 'sk_test_slow_body'}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
  for (let index = 0; index < size.sockets; index++) {
    const socket = await open(port, serverClosed);
    socket.on('error', () => {});
    socket.resume();
    socket.write(head);
    sockets.push(socket);
  }
  timer = setInterval(() => {
    for (const socket of sockets)
      if (!socket.destroyed) socket.write(size.part === 'headers' ? 'a' : ' ');
  }, size.intervalMs);
  return held;
}

/**
 * Writes `raw` bytes on a fresh connection and returns everything the server sent until it
 * closed the connection or `waitMs` passed.
 *
 * @example
 * await rawExchange(port, 'GET /v1/payments HTTP/1.0\r\n\r\n'); // 'HTTP/1.1 401 …'
 */
export async function rawExchange(port: number, raw: string, waitMs = 5000): Promise<string> {
  const socket = await open(port, () => {});
  return new Promise((resolve) => {
    let text = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(text);
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    socket.on('error', done);
    socket.on('end', done);
    socket.on('close', done);
    socket.write(raw);
  });
}

/** A raw HTTP answer taken apart: status, lower-cased headers, and the JSON body if any. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  json: Record<string, unknown> | undefined;
}

/**
 * Parses the first answer in raw bytes from `rawExchange` (chunked or not); status 0 if none.
 *
 * @example
 * parseRawAnswer('HTTP/1.1 200 OK\r\nRequest-Id: req_1\r\n\r\n{}').status; // 200
 */
export function parseRawAnswer(raw: string): RawAnswer {
  const match = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(raw);
  if (match === null) return { status: 0, headers: {}, json: undefined };
  const headers: Record<string, string> = {};
  for (const line of (match[2] as string).split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = match[3] as string;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  let json: Record<string, unknown> | undefined;
  try {
    json = start >= 0 && end > start ? JSON.parse(body.slice(start, end + 1)) : undefined;
  } catch {
    json = undefined;
  }
  return { status: Number(match[1]), headers, json };
}
