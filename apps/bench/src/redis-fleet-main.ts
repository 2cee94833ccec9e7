// Runs only the Valkey/Redis fleet measurement: `node dist/redis-fleet-main.js [--smoke]`; prints its section and the load average.
import { measureRedisFleet } from './redis-fleet.js';
import { redisFleetRatios, renderRedisFleet } from './redis-fleet-report.js';
import { runSectionMain } from './section-main.js';

runSectionMain('redis-fleet', async ({ settings, tool, logDir, log }) => {
  const outcome = await measureRedisFleet(tool, settings, logDir, log);
  if ('skipped' in outcome) return `skipped: ${outcome.skipped}\n`;
  const ratios = Object.entries(redisFleetRatios(outcome.result)).map(
    ([name, value]) => `${name}: ${value === null ? 'n/a' : value.toFixed(3)}\n`,
  );
  return `${renderRedisFleet(outcome.result).join('\n')}\n\n${ratios.join('')}`;
});
