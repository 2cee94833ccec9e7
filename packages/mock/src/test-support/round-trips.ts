// Counts what a store call costs on the wire: round trips (socket writes, each a batch the client then waits on) and the commands in them.
import type { Redis } from 'ioredis';
import { SCRIPTS } from '../store/redis/scripts.js';

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

/** The store's scripts by the SHA1 their EVALSHA names them with. */
const scriptNames = new Map(Object.values(SCRIPTS).map((script) => [script.sha, script.name]));

/** One command as sent: its name, a store script by its name (`psm_open`). */
function commandName(command: { name: string; args: unknown[] }): string {
  if (command.name !== 'evalsha') return command.name;
  return scriptNames.get(String(command.args[0])) ?? 'evalsha';
}

/**
 * The commands an instance's own timers send, whatever the requests do: the heartbeat
 * (`psm_beat`, every third of a lease) and the poll of the fleet's due keys (`zrangebyscore`,
 * once a second). A round trip of these alone is left out of a trace: it is no request's.
 */
const BACKGROUND = new Set(['psm_beat', 'zrangebyscore']);

/**
 * Runs `operation` on `client` and lists its round trips: each write to the socket, as the names
 * of the commands it carried (a store script by its name). Commands queued and not yet written
 * when the operation ends are left out (ioredis writes a tick later), and so are the round trips
 * of the instance's timers alone (`BACKGROUND`), which may land in any window.
 *
 * @example
 * await wireTrace(client, () => account.payment('pay_1')); // [['psm_payment']]
 */
export async function wireTrace(
  client: Redis,
  operation: () => Promise<unknown>,
): Promise<string[][]> {
  const stream = (client as unknown as { stream: { write: Method } }).stream;
  const target = client as unknown as { sendCommand: Method };
  const write = stream.write;
  const sendCommand = target.sendCommand;
  const writes: string[][] = [];
  let sent: string[] = [];
  stream.write = (...args: unknown[]) => {
    if (sent.some((name) => !BACKGROUND.has(name))) writes.push(sent);
    sent = [];
    return write.apply(stream, args);
  };
  target.sendCommand = (...args: unknown[]) => {
    sent.push(commandName(args[0] as { name: string; args: unknown[] }));
    return sendCommand.apply(client, args);
  };
  try {
    await operation();
  } finally {
    stream.write = write;
    target.sendCommand = sendCommand;
  }
  return writes;
}
