// Webhook receivers on 127.0.0.1: one that answers at once (200, or the status it is set to), one that never answers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createChanges } from './changes.js';

/** A receiver listening on a free port. */
export interface Receiver {
  url: string;
  /** Webhook bodies received (parsed), in arrival order, with the raw body, headers and path. */
  received: Array<{
    id?: string;
    type?: string;
    data?: { object?: { id?: string } };
    at: number;
    raw: string;
    headers: Record<string, string>;
    path: string;
  }>;
  /** What an `answer` receiver answers (200 unless set: 500 makes the sender retry). */
  status: number;
  /** Requests whose connection the sender closed before an answer (hanging receiver only). */
  abandoned: number;
  /** Resolves with the first received event whose payment id is `paymentId` (any event if omitted). */
  waitFor(paymentId?: string): Promise<{ at: number }>;
  /** Resolves once `predicate` holds, re-checked after each delivery. */
  until(predicate: () => boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a receiver: `answer` replies `receiver.status` (200 unless set) to every POST; `hang` reads the request and never
 * replies (the sender's timeout is the only way out).
 *
 * @example
 * const receiver = await startReceiver('hang'); // receiver.url → http://127.0.0.1:…/hook
 */
export async function startReceiver(mode: 'answer' | 'hang'): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const waiters: Array<{ id: string | undefined; resolve: (value: { at: number }) => void }> = [];
  const changes = createChanges();
  const receiver: Receiver = {
    url: '',
    received: [],
    status: 200,
    abandoned: 0,
    waitFor(paymentId) {
      const hit = receiver.received.find(
        (event) => paymentId === undefined || event.data?.object?.id === paymentId,
      );
      if (hit !== undefined) return Promise.resolve({ at: hit.at });
      return new Promise((resolve) => waiters.push({ id: paymentId, resolve }));
    },
    until: (predicate) => changes.until(predicate),
    close: async () => {},
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let event: { id?: string; type?: string; data?: { object?: { id?: string } } } = {};
      try {
        event = JSON.parse(raw);
      } catch {}
      const at = performance.now();
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers[name] = value;
      }
      receiver.received.push({ ...event, at, raw, headers, path: req.url ?? '' });
      for (const waiter of waiters.splice(0)) {
        if (waiter.id === undefined || waiter.id === event.data?.object?.id) waiter.resolve({ at });
        else waiters.push(waiter);
      }
      changes.notify();
      if (mode === 'answer') {
        res.statusCode = receiver.status;
        res.end('ok');
      } else res.on('close', () => receiver.abandoned++);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Never cut the mock's connections from this side: only the mock's own timeout may end them.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return receiver;
}
