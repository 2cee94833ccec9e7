// Test support: a target on 127.0.0.1 that answers as a test says (forged text, redirects, hangs, resets), often in front of the in-process mock.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the target does with one request: an answer, no answer at all, or a closed connection. */
export type HostileAnswer = Response | 'hang' | 'reset';

/** A running hostile target. */
export interface HostileTarget {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request received, as `METHOD /path?query`, in order. */
  requests: string[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function answer(response: ServerResponse, reply: Response) {
  const headers: Record<string, string> = {};
  reply.headers.forEach((value, name) => {
    headers[name] = value;
  });
  response.writeHead(reply.status, headers);
  response.end(Buffer.from(await reply.arrayBuffer()));
}

/**
 * Starts a target on 127.0.0.1 whose every answer comes from `handle`.
 *
 * @example
 * const target = await startHostileTarget(async (request) => mock.fetch(request));
 */
export async function startHostileTarget(
  handle: (request: Request) => Promise<HostileAnswer> | HostileAnswer,
): Promise<HostileTarget> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const body = await readBody(request);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const method = request.method ?? 'GET';
    const incoming = new Request(`${target.url}${request.url ?? '/'}`, {
      method,
      headers,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: new Uint8Array(body) }),
    });
    try {
      const reply = await handle(incoming);
      if (reply === 'hang') return;
      if (reply === 'reset') {
        request.socket.destroy();
        return;
      }
      await answer(response, reply);
    } catch (error) {
      response.writeHead(599).end(String(error));
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target: HostileTarget = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return target;
}

/**
 * A JSON answer.
 *
 * @example
 * json(400, { code: 'x' }, { 'content-type': 'application/problem+json' });
 */
export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
