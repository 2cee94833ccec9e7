// Reads redis-server's INFO (commandstats and stats) over a plain socket: the store's work counters.
import { connect } from 'node:net';

/** The counters the bench reads from a redis-server. */
export interface RedisCounters {
  /** `calls` of each command (`cmdstat_<name>`), lower case. */
  calls: Record<string, number>;
  /** `total_commands_processed`. */
  commandsProcessed: number;
  /** `total_reads_processed`: reads of client sockets (a pipelined batch read at once counts once). */
  readsProcessed: number;
  /** `redis_version` (Valkey reports its compatible version here too). */
  version: string;
}

/**
 * Parses INFO's text (`# Section` lines and `field:value` lines) into the counters the bench uses.
 * A missing field reads as 0 (or '' for the version); a command's line without `calls=` is ignored.
 *
 * @example
 * parseRedisInfo('cmdstat_get:calls=3,usec=9\r\ntotal_reads_processed:7\r\n').calls.get; // 3
 */
export function parseRedisInfo(text: string): RedisCounters {
  const calls: Record<string, number> = {};
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1);
    if (name.startsWith('cmdstat_')) {
      const match = /(?:^|,)calls=(\d+)/.exec(value);
      if (match !== null) calls[name.slice('cmdstat_'.length).toLowerCase()] = Number(match[1]);
    } else fields[name] = value;
  }
  const count = (field: string) => {
    const value = Number(fields[field] ?? 0);
    return Number.isFinite(value) ? value : 0;
  };
  return {
    calls,
    commandsProcessed: count('total_commands_processed'),
    readsProcessed: count('total_reads_processed'),
    version: fields.redis_version ?? '',
  };
}

/** The counters' growth from `before` to `after`, per command and in total. */
export interface CounterDelta {
  /** Calls of each command that grew, without INFO itself (the bench's own reads). */
  calls: Record<string, number>;
  /** Calls summed over `calls`. */
  commands: number;
  reads: number;
}

/**
 * What grew between two readings. The bench's own INFO calls are left out of `calls` and
 * `commands`, and `reads` loses the one read of the `after` INFO request.
 *
 * @example
 * counterDelta(before, after).commands; // e.g. 3000 for 1,000 creates
 */
export function counterDelta(before: RedisCounters, after: RedisCounters): CounterDelta {
  const calls: Record<string, number> = {};
  let commands = 0;
  for (const [name, value] of Object.entries(after.calls)) {
    if (name === 'info') continue;
    const grown = value - (before.calls[name] ?? 0);
    if (grown > 0) {
      calls[name] = grown;
      commands += grown;
    }
  }
  return {
    calls,
    commands,
    reads: Math.max(0, after.readsProcessed - before.readsProcessed - 1),
  };
}

/**
 * Sends `INFO stats commandstats server` to the redis-server on 127.0.0.1:`port` on a fresh
 * connection and parses the answer. Rejects on a connection error, an error reply or after 5 s.
 *
 * @example
 * const counters = await readRedisCounters(6390);
 * counters.calls.evalsha; // e.g. 2000
 */
export function readRedisCounters(port: number): Promise<RedisCounters> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let buffer = Buffer.alloc(0);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(5000, () => fail(new Error(`INFO from port ${port}: no answer within 5 s`)));
    socket.once('error', fail);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const headerEnd = buffer.indexOf('\r\n');
      if (headerEnd < 0) return;
      const header = buffer.subarray(0, headerEnd).toString('latin1');
      if (!header.startsWith('$')) {
        fail(new Error(`INFO from port ${port} answered ${header.slice(0, 200)}`));
        return;
      }
      const length = Number(header.slice(1));
      if (buffer.length < headerEnd + 2 + length) return;
      socket.end();
      resolve(parseRedisInfo(buffer.subarray(headerEnd + 2, headerEnd + 2 + length).toString()));
    });
    socket.once('connect', () => socket.write('INFO stats commandstats server\r\n'));
  });
}
