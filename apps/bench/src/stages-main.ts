// Runs only the stage table: `node dist/stages-main.js [--smoke]` (BENCH_PREVIOUS: the build to compare with, a CLI script or a git revision); prints the section and the load average.
import { runSectionMain } from './section-main.js';
import { CURRENT_BUILD, type MockBuild, measureStages, previousStageBuild } from './stages.js';
import { renderStages } from './stages-report.js';

runSectionMain('stages', async ({ settings, tool, logDir, log }) => {
  const previous = previousStageBuild(process.env.BENCH_PREVIOUS, settings);
  const builds: MockBuild[] = [CURRENT_BUILD];
  if (typeof previous === 'string') log(`stages: no previous build: ${previous}`);
  else builds.unshift(previous);
  const result = await measureStages(builds, tool, settings, logDir, log);
  return `${renderStages(result).join('\n')}\n`;
});
