// A hostile RESP server for tests: a TCP proxy in front of a real redis-server that can hang its replies, send an oversized one, or answer wrong types.
import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';

/** How a reply from the real server is changed on its way (undefined: sent as it is). */
export type ReplyRewrite = (reply: Buffer) => Buffer | undefined;

/** The proxy, and what it does to the replies that go through it. */
export interface HostileRedis {
  /** `redis://127.0.0.1:<port>` (with the real server's password, if any). */
  url: string;
  port: number;
  /**
   * Nothing goes through any more, on every connection, open or new: commands and replies are
   * dropped, connections stay open (a server or a network that hangs without closing
   * anything). `resume()` lets what comes next through.
   */
  stall(): void;
  resume(): void;
  /** Each reply is sent `ms` later (0: at once): a slow store. */
  delayReplies(ms: number): void;
  /** Sends `bytes` on every open connection now, as a reply no command asked for. */
  sendUnasked(bytes: string): void;
  /**
   * The next reply is replaced by a bulk header declaring `declared` bytes, followed by data sent
   * as fast as the client reads it, until it closes the connection or `cap` bytes were sent.
   */
  oversizeNext(declared: number, cap: number): void;
  /** Bytes of the oversized reply the client took before it closed (or the cap). */
  oversizedBytesSent(): number;
  /** Rewrites every reply while set (wrong types); `undefined` stops. */
  rewrite(change: ReplyRewrite | undefined): void;
  /** Client connections accepted so far. */
  accepted(): number;
  close(): Promise<void>;
}

/** The end of the RESP2 value starting at `at`, or -1 if it is not complete yet. */
function replyEnd(buffer: Buffer, at: number): number {
  const lineEnd = buffer.indexOf('\r\n', at);
  if (lineEnd === -1) return -1;
  const type = String.fromCharCode(buffer[at] as number);
  const next = lineEnd + 2;
  if (type === '+' || type === '-' || type === ':') return next;
  const count = Number(buffer.toString('latin1', at + 1, lineEnd));
  if (count < 0) return next;
  if (type === '$') return buffer.length >= next + count + 2 ? next + count + 2 : -1;
  let end = next;
  for (let index = 0; index < count; index++) {
    end = replyEnd(buffer, end);
    if (end === -1) return -1;
  }
  return end;
}

/**
 * Starts a proxy on a free port of 127.0.0.1 in front of the redis-server at `port`.
 *
 * @example
 * const hostile = await startHostileRedis(redis.port, 'secret');
 * hostile.stall(); // every reply from now on is held
 */
export async function startHostileRedis(
  upstreamPort: number,
  password?: string,
): Promise<HostileRedis> {
  let stalled = false;
  let delayMs = 0;
  let oversize: { declared: number; cap: number } | undefined;
  let oversizedSent = 0;
  let change: ReplyRewrite | undefined;
  let accepted = 0;
  const sockets = new Set<Socket>();
  const clients = new Set<Socket>();

  const streamOversized = (client: Socket, declared: number, cap: number) => {
    client.write(`$${declared}\r\n`);
    const block = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      while (!client.destroyed && oversizedSent < cap) {
        oversizedSent += block.length;
        if (!client.write(block)) {
          client.once('drain', pump);
          return;
        }
      }
    };
    pump();
  };

  const server = createServer((client) => {
    accepted++;
    const upstream = createConnection({ host: '127.0.0.1', port: upstreamPort });
    sockets.add(client);
    sockets.add(upstream);
    clients.add(client);
    let pending = Buffer.alloc(0);
    let hijacked = false;
    const send = (reply: Buffer) => {
      if (delayMs === 0) client.write(reply);
      else setTimeout(() => client.destroyed || client.write(reply), delayMs);
    };
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (!hijacked && pending.length > 0) {
        const end = replyEnd(pending, 0);
        if (end === -1) return;
        const reply = pending.subarray(0, end);
        pending = pending.subarray(end);
        if (stalled) continue;
        if (oversize !== undefined) {
          const { declared, cap } = oversize;
          oversize = undefined;
          hijacked = true;
          oversizedSent = 0;
          streamOversized(client, declared, cap);
          return;
        }
        send(change?.(reply) ?? reply);
      }
    });
    client.on('data', (chunk) => {
      if (!hijacked && !stalled) upstream.write(chunk);
    });
    const end = () => {
      clients.delete(client);
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const auth = password === undefined ? '' : `:${encodeURIComponent(password)}@`;
  return {
    url: `redis://${auth}127.0.0.1:${port}`,
    port,
    stall() {
      stalled = true;
    },
    resume() {
      stalled = false;
    },
    delayReplies(ms) {
      delayMs = ms;
    },
    sendUnasked(bytes) {
      for (const client of clients) client.write(bytes);
    },
    oversizeNext(declared, cap) {
      oversize = { declared, cap };
    },
    oversizedBytesSent: () => oversizedSent,
    rewrite(next) {
      change = next;
    },
    accepted: () => accepted,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
