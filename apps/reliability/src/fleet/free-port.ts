// A free TCP port on 127.0.0.1, for the fleet's processes that must be told their port up front.
import { createServer } from 'node:net';

/**
 * Asks the kernel for a free port on 127.0.0.1 (listen on 0, read it, close).
 *
 * @example
 * const port = await freePort(); // e.g. 41817
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}
