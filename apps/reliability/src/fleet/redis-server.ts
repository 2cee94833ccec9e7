// Debian's redis-server on a free port, without persistence: the fleet's shared store in the tests.
import { freePort } from './free-port.js';
import { type FleetProcess, findProgram, startProcess } from './processes.js';

/** A running redis-server, restartable on the same port (a restart loses its data). */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  port: number;
  alive(): boolean;
  /** Stops it (SIGTERM); the port stays reserved for `start()`. */
  stop(): Promise<void>;
  /** Kills it (SIGKILL). */
  kill9(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/**
 * Starts `redis-server` on a free port of 127.0.0.1 with persistence off (`--save ''`,
 * `--appendonly no`), and resolves once it accepts connections.
 *
 * @example
 * const redis = await startRedisServer();
 * const mock = await startSandbox(['--redis-url', redis.url]);
 */
export async function startRedisServer(): Promise<RedisServer> {
  const program = findProgram('redis-server');
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--loglevel',
    'warning',
  ];
  // redis-server at loglevel warning prints nothing when ready: ask it to log at notice.
  const launch = () =>
    startProcess(
      program,
      [...args.slice(0, -2), '--loglevel', 'notice'],
      /Ready to accept connections/,
    );
  let current: FleetProcess = await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    alive: () => current.alive(),
    stop: () => current.stop(),
    kill9: () => current.kill9(),
    async start() {
      if (current.alive()) return;
      current = await launch();
    },
  };
}
