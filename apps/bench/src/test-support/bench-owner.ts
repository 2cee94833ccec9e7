// A bench run in miniature for owned.test.ts, run in a process of its own: a log directory with a server's log in it, the report's directory and a server process, made the way the bench makes them (benchDirectory, spawnServer). SIGUSR2 ends it the way the bench ends (process.exit).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDirectory } from '../owned.js';
import { freePort, spawnServer } from '../servers.js';

/** A server that answers every request with 200 and an empty body, on the port it is given. */
const LISTEN =
  "require('node:http').createServer((_, answer) => answer.end()).listen(Number(process.argv[1]), '127.0.0.1')";

/**
 * Makes what a run owns and says where it is; the process then waits to be signalled.
 *
 * @example
 * const { logDir, report, pids } = await startOwnedRun();
 */
export async function startOwnedRun(): Promise<{ logDir: string; report: string; pids: number[] }> {
  const logDir = benchDirectory('bench-logs-');
  const report = benchDirectory('bench-smoke-', { keepAtExit: true });
  writeFileSync(join(report, 'BENCHMARKS.md'), '# a report\n');
  const servers = [];
  for (let index = 0; index < 2; index++) {
    const command = {
      name: 'floor' as const,
      args: (port: number) => ['-e', LISTEN, String(port)],
    };
    servers.push(spawnServer(command, await freePort(), logDir));
  }
  process.on('SIGUSR2', () => process.exit(0));
  return { logDir, report, pids: servers.map((server) => server.pid) };
}
