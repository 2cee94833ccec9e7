// Where a request comes from: the sandbox's own machine (in process, loopback) or the network.
import { isLoopbackAddress } from '../domain/webhook-address.js';

/** The bindings a request may arrive with: @hono/node-server's, or the in-process `fetch`'s. */
interface Bindings {
  inProcess?: boolean;
  incoming?: { socket?: { remoteAddress?: string | undefined } };
}

/**
 * Whether a request's caller is on the sandbox's machine: called in process (the mock's `fetch`,
 * or `app.fetch` with no bindings), or over a connection from a loopback address. A caller the
 * runtime does not say anything about (another adapter) counts as remote.
 *
 * @example
 * callerOnThisMachine({ incoming: { socket: { remoteAddress: '::ffff:127.0.0.1' } } }); // true
 * callerOnThisMachine({ incoming: { socket: { remoteAddress: '192.0.2.7' } } }); // false
 */
export function callerOnThisMachine(env: unknown): boolean {
  if (env === undefined || env === null) return true;
  const bindings = env as Bindings;
  if (bindings.inProcess === true) return true;
  const address = bindings.incoming?.socket?.remoteAddress;
  return address !== undefined && isLoopbackAddress(address);
}
