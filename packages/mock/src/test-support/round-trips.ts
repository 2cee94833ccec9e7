// Counts what a store call costs on the wire: round trips (socket writes, each a batch the client then waits on) and the commands in them.
import type { Redis } from 'ioredis';

/** What one measured operation cost. */
export interface WireCost {
  roundTrips: number;
  commands: number;
}

type Method = (...args: unknown[]) => unknown;

/**
 * Runs `operation` on `client` and counts its writes to the socket (with auto-pipelining, the
 * commands issued in one tick go out in one write: one round trip) and the commands sent
 * (a script is one command, whatever it runs on the server).
 *
 * @example
 * const cost = await wireCost(store.client, () => account.payment('pay_1')); // { roundTrips: 1, commands: 1 }
 */
export async function wireCost(
  client: Redis,
  operation: () => Promise<unknown>,
): Promise<WireCost> {
  const stream = (client as unknown as { stream: { write: Method } }).stream;
  const target = client as unknown as { sendCommand: Method };
  const write = stream.write;
  const sendCommand = target.sendCommand;
  const cost: WireCost = { roundTrips: 0, commands: 0 };
  stream.write = (...args: unknown[]) => {
    cost.roundTrips++;
    return write.apply(stream, args);
  };
  target.sendCommand = (...args: unknown[]) => {
    cost.commands++;
    return sendCommand.apply(client, args);
  };
  try {
    await operation();
  } finally {
    stream.write = write;
    target.sendCommand = sendCommand;
  }
  return cost;
}
