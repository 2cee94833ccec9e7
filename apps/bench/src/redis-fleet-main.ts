// Runs only the Valkey/Redis fleet measurement: `node dist/redis-fleet-main.js [--smoke]`; prints its section and the load average.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chooseLoadTool } from './load/index.js';
import { autocannonVersion } from './machine.js';
import { settingsFor } from './modes.js';
import { measureRedisFleet } from './redis-fleet.js';
import { redisFleetRatios, renderRedisFleet } from './redis-fleet-report.js';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { smoke: { type: 'boolean', default: false } } });
  const settings = settingsFor(values.smoke ? 'smoke' : 'full');
  const tool = chooseLoadTool(autocannonVersion());
  const logDir = mkdtempSync(join(tmpdir(), 'bench-redis-fleet-'));
  const loadStart = loadavg()[0] ?? 0;
  const started = performance.now();
  try {
    const outcome = await measureRedisFleet(tool, settings, logDir, (line) =>
      process.stderr.write(`bench: ${line}\n`),
    );
    if ('skipped' in outcome) {
      process.stdout.write(`skipped: ${outcome.skipped}\n`);
      return;
    }
    process.stdout.write(`${renderRedisFleet(outcome.result).join('\n')}\n\n`);
    for (const [name, value] of Object.entries(redisFleetRatios(outcome.result))) {
      process.stdout.write(`${name}: ${value === null ? 'n/a' : value.toFixed(3)}\n`);
    }
    process.stdout.write(
      `\n${settings.mode} mode, ${tool.version}, ${settings.connections} connections, ${((performance.now() - started) / 1000).toFixed(1)} s; load average (1 min) ${loadStart.toFixed(2)} at start, ${(loadavg()[0] ?? 0).toFixed(2)} at end\n`,
    );
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench: failed: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  },
);
