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
 * Cold starts of several servers, interleaved so that the machine's drift reaches them alike: in
 * each of `settings.coldStartRuns` rounds every server is spawned once (the order rotates by a
 * step per round), timed from process start to its first 2xx create with a payment body (polling
 * every ~2 ms), and stopped.
 *
 * @example
 * const [floor, mock] = await measureColdStarts([serverCommand('floor'), serverCommand('mock')], settingsFor('full'), '/tmp');
 * mock.medianMs - floor.medianMs; // what the mock adds to node's own start, e.g. 60
 */
export async function measureColdStarts(
  commands: readonly ServerCommand[],
  settings: BenchSettings,
  logDir: string,
): Promise<ColdStartResult[]> {
  const runsMs = commands.map((): number[] => []);
  for (let run = 0; run < settings.coldStartRuns; run++) {
    for (let step = 0; step < commands.length; step++) {
      const index = (run + step) % commands.length;
      runsMs[index]?.push(await timeColdStart(commands[index] as ServerCommand, logDir));
    }
  }
  return commands.map((command, index) => {
    const runs = runsMs[index] ?? [];
    return { server: command.name, runsMs: runs, medianMs: median(runs) };
  });
}

async function timeColdStart(command: ServerCommand, logDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const server = spawnServer(command, port, logDir);
  try {
    await waitForFirstCreate(server.url, 30_000);
    return performance.now() - started;
  } finally {
    await server.stop();
  }
}
