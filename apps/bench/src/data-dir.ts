// The data directory: creates and retrieves with and without it (same run), the directory's size, and start-up with 100,000 stored payments.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson, sendRequest } from './http-client.js';
import type { LoadTool } from './load/index.js';
import { createMany, residentMiB } from './memory.js';
import type { BenchSettings } from './modes.js';
import { benchDirectory, removeBenchDirectory } from './owned.js';
import {
  freePort,
  type RunningServer,
  type ServerCommand,
  serverCommand,
  spawnServer,
  startServer,
} from './servers.js';
import { median } from './stats.js';
import { measureThroughput, type ThroughputResult } from './throughput.js';

/** What the data-directory run measured. */
export interface DataDirResult {
  /** Creates and retrieves of the mock (--quiet) in memory and with --data-dir, same run. */
  throughput: ThroughputResult[];
  /** Payments stored before the restarts, over `keys` keys, each create with an Idempotency-Key. */
  payments: number;
  keys: number;
  /** Creates that did not answer 201 while filling. */
  fillFailures: number;
  fillSeconds: number;
  /** RSS of the filled server, at start and after the fill. */
  rssStartMiB: number;
  rssFilledMiB: number;
  directoryBytes: number;
  /** From spawning the CLI on the filled directory to its first list answering the stored payments. */
  startupRunsMs: number[];
  startupMedianMs: number;
  /** The same, on an empty directory each time. */
  emptyStartupMedianMs: number;
}

/** Sizes of the data-directory run per mode: payments stored before the restarts, restarts. */
export function dataDirSizes(settings: BenchSettings): {
  payments: number;
  keys: number;
  restarts: number;
} {
  return settings.mode === 'smoke'
    ? { payments: 200, keys: 20, restarts: 2 }
    : { payments: 100_000, keys: 1_000, restarts: 3 };
}

const directorySize = (path: string) =>
  readdirSync(path).reduce((sum, name) => sum + statSync(join(path, name)).size, 0);

/**
 * Measures the mock with a data directory: throughput beside the memory store in the same run,
 * then a directory filled with `payments` creates (stopped with SIGTERM), its size and RSS, and
 * the time to restart on it (spawn → a list that answers a stored payment), beside an empty one.
 * The memory store's server (`mock-quiet`) is `memory` when given (the caller's, left running),
 * else one started here.
 *
 * @example
 * const result = await measureDataDir(loadTool, settingsFor('full'), '/tmp/logs', console.error);
 * result.startupMedianMs; // e.g. 1400
 */
export async function measureDataDir(
  tool: LoadTool,
  settings: BenchSettings,
  logDir: string,
  log: (line: string) => void,
  memory?: RunningServer,
): Promise<DataDirResult> {
  const directories: string[] = [];
  const newDirectory = () => {
    const path = benchDirectory('bench-data-dir-');
    directories.push(path);
    return path;
  };
  try {
    const quiet = memory ?? (await startServer(serverCommand('mock-quiet'), logDir));
    const durable = await startServer(
      serverCommand('mock-data-dir', { dataDir: newDirectory() }),
      logDir,
    );
    let throughput: ThroughputResult[];
    try {
      // Shorter rounds than the main table's: the full run stays within its time.
      const rounds = { ...settings, roundSeconds: Math.min(settings.roundSeconds, 2) };
      throughput = await measureThroughput([quiet, durable], tool, rounds, log);
    } finally {
      await Promise.all([quiet === memory ? undefined : quiet.stop(), durable.stop()]);
    }

    const { payments, keys, restarts } = dataDirSizes(settings);
    const dataDir = newDirectory();
    const command = serverCommand('mock-data-dir', { dataDir });
    const filled = await startServer(command, logDir);
    const rssStartMiB = residentMiB(filled.pid);
    const started = performance.now();
    // startServer's probe stored one payment already.
    const fillFailures = await createMany(filled.url, payments - 1, keys, 'fill');
    const fillSeconds = (performance.now() - started) / 1000;
    const rssFilledMiB = residentMiB(filled.pid);
    await filled.stop();
    const directoryBytes = directorySize(dataDir);
    log(
      `data dir: ${payments} creates in ${fillSeconds.toFixed(1)} s (${fillFailures} not 201), ${(directoryBytes / 2 ** 20).toFixed(1)} MiB, RSS ${rssFilledMiB.toFixed(1)} MiB`,
    );
    const startupRunsMs: number[] = [];
    const emptyRunsMs: number[] = [];
    for (let run = 0; run < restarts; run++) {
      startupRunsMs.push(await timeStart(command, logDir));
      emptyRunsMs.push(
        await timeStart(serverCommand('mock-data-dir', { dataDir: newDirectory() }), logDir),
      );
    }
    log(`data dir: start-up ${startupRunsMs.map((ms) => Math.round(ms)).join(', ')} ms`);
    return {
      throughput,
      payments,
      keys,
      fillFailures,
      fillSeconds,
      rssStartMiB,
      rssFilledMiB,
      directoryBytes,
      startupRunsMs,
      startupMedianMs: median(startupRunsMs),
      emptyStartupMedianMs: median(emptyRunsMs),
    };
  } finally {
    for (const path of directories) removeBenchDirectory(path);
  }
}

/** The key the fill's first payments were made with (createMany's round robin). */
const FILL_KEY = `sk_test_bench_memory_${'0'.padStart(6, '0')}`;

/** Spawn → the first list of a filled key that answers 200 (empty: any 200), in ms. */
async function timeStart(command: ServerCommand, logDir: string): Promise<number> {
  const started = performance.now();
  const server = spawnServer(command, await freePort(), logDir);
  try {
    const deadline = started + 60_000;
    while (performance.now() < deadline) {
      const answer = await sendRequest(`${server.url}/v1/payments?limit=1`, {
        method: 'GET',
        headers: { authorization: `Bearer ${FILL_KEY}` },
      }).catch(() => undefined);
      if (answer?.status === 200 && typeof parseJson(answer.text) === 'object') {
        return performance.now() - started;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`${command.name} did not answer within 60 s`);
  } finally {
    await server.stop();
  }
}
