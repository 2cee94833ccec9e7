// Serves a mock over HTTP with @hono/node-server: `startMockServer` for tests, scripts and the CLI.
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createMockServer } from './app.js';
import type { MockServerOptions } from './options.js';

/** Options of `startMockServer`: the mock's options plus where to listen. */
export interface StartMockServerOptions extends MockServerOptions {
  /** TCP port; 0 (the default here) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  hostname?: string;
}

/** A mock listening over HTTP. */
export interface RunningMockServer {
  /** Base URL, such as `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  /** Stops listening, ends open connections and stops the mock's timers. */
  close(): Promise<void>;
}

/**
 * Starts a mock server over HTTP. `drop_after_commit` faults destroy the socket, so the client
 * sees a connection error after the change was committed.
 *
 * @example
 * const server = await startMockServer({ port: 0 });
 * await fetch(`${server.url}/v1/payments`, { headers: { authorization: 'Bearer sk_test_12345678' } });
 * await server.close();
 */
export async function startMockServer(
  options: StartMockServerOptions = {},
): Promise<RunningMockServer> {
  const { port = 0, hostname = '127.0.0.1', ...mockOptions } = options;
  const mock = createMockServer(mockOptions);
  const server = createAdaptorServer({ fetch: mock.app.fetch });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        mock.close();
        server.close((error) => (error ? reject(error) : resolve()));
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
