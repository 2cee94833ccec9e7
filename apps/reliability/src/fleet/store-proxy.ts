// A TCP proxy in front of an instance's store that can freeze: nothing goes through, every connection stays open (a store that hangs for that instance only).
import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';

/** A running proxy. */
export interface StoreProxy {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  /** From now on every byte, either way, on every connection (open or new), is dropped. */
  freeze(): void;
  /** Bytes go through again. */
  thaw(): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy on a free port of 127.0.0.1 in front of 127.0.0.1:`port`.
 *
 * @example
 * const proxy = await startStoreProxy(redis.port);
 * const sandbox = await startSandbox(['--redis-url', proxy.url]);
 * proxy.freeze();
 */
export async function startStoreProxy(port: number): Promise<StoreProxy> {
  let frozen = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => frozen || upstream.write(chunk));
    upstream.on('data', (chunk) => frozen || client.write(chunk));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const listening = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${listening}`,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
