// Cold start: from spawning a server process to its first successful create, several runs.
import type { BenchSettings } from './modes.js';
import { freePort, type ServerCommand, spawnServer, waitForFirstCreate } from './servers.js';
import { median } from './stats.js';

/** Cold starts of one server: every run in ms and their median. */
export interface ColdStartResult {
  server: ServerCommand['name'];
  runsMs: number[];
  medianMs: number;
}

/**
 * Spawns the server `runs` times; each time measures process start to the first 2xx create with a
 * payment body (polling every ~2 ms), then stops it.
 *
 * @example
 * const result = await measureColdStart(serverCommand('mock'), settingsFor('full'), '/tmp');
 * result.medianMs; // e.g. 180
 */
export async function measureColdStart(
  command: ServerCommand,
  settings: BenchSettings,
  logDir: string,
): Promise<ColdStartResult> {
  const runsMs: number[] = [];
  for (let run = 0; run < settings.coldStartRuns; run++) {
    const port = await freePort();
    const started = performance.now();
    const server = spawnServer(command, port, logDir);
    try {
      await waitForFirstCreate(server.url, 30_000);
      runsMs.push(performance.now() - started);
    } finally {
      await server.stop();
    }
  }
  return { server: command.name, runsMs, medianMs: median(runsMs) };
}
