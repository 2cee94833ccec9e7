// Test support: a hostile HTTP API on 127.0.0.1 (node:http) whose answers attack the SDK: bombs, endless bodies, repeated pages.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** A running hostile server. */
export interface HostileServer {
  /** Its base URL, `http://127.0.0.1:<port>`, to pass as `baseUrl`. */
  readonly url: string;
  /** How many requests it received. */
  readonly requests: () => number;
  close(): Promise<void>;
}

/** Answers one request; `index` counts the requests received before it. */
export type HostileHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  index: number,
) => void;

/**
 * Starts a server on an ephemeral 127.0.0.1 port that answers every request with `handler`.
 *
 * @example
 * const server = await startHostileServer((request, response) => response.end('{}'));
 */
export async function startHostileServer(handler: HostileHandler): Promise<HostileServer> {
  let count = 0;
  const server = createServer((request, response) => {
    request.resume();
    // An endless writer stops once the client goes away.
    response.on('error', () => {});
    handler(request, response, count++);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A gzip bomb: a payment whose id is `decodedMiB` MiB of `x`, as gzip members (one small member
 * repeated), so a few hundred kB on the wire decode to hundreds of megabytes or gigabytes.
 *
 * @example
 * response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipBomb(2048));
 */
export function gzipBomb(decodedMiB: number): Buffer {
  const member = gzipSync(Buffer.alloc(16 * 1024 * 1024, 'x'), { level: 9 });
  const members = Array.from({ length: Math.ceil(decodedMiB / 16) }, () => member);
  return Buffer.concat([gzipSync('{"id":"pay_'), ...members, gzipSync('","object":"payment"}')]);
}

/**
 * Writes `chunk` to `response` forever (each write once the previous one drained), every
 * `everyMs` milliseconds when given, until the client disconnects.
 *
 * @example
 * response.writeHead(500, { 'content-type': 'application/json' });
 * writeForever(response, 'x'.repeat(65_536));
 */
export function writeForever(response: ServerResponse, chunk: string, everyMs?: number): void {
  const write = () => {
    if (response.destroyed) return;
    const drained = response.write(chunk);
    if (everyMs !== undefined) setTimeout(write, everyMs);
    else if (drained) setImmediate(write);
    else response.once('drain', write);
  };
  response.on('close', () => response.destroy());
  write();
}
