// Runs only the stage table: `node dist/stages-main.js [--smoke]` (BENCH_PREVIOUS: the build to compare with, a CLI script or a git revision; else d7ac2fd and d4b14ca; BENCH_STAGE_ROUNDS: the rounds, run in alternating order); prints the section and the load average.
import { runSectionMain } from './section-main.js';
import { CURRENT_BUILD, type MockBuild, measureStages, previousStageBuilds } from './stages.js';
import { renderStages } from './stages-report.js';

runSectionMain('stages', async ({ settings, tool, logDir, log }) => {
  const previous = previousStageBuilds(process.env.BENCH_PREVIOUS, settings);
  for (const missing of previous.missing) log(`stages: no previous build: ${missing}`);
  const builds: MockBuild[] = [...previous.builds, CURRENT_BUILD];
  const result = await measureStages(builds, tool, settings, logDir, log);
  return `${renderStages(result).join('\n')}\n`;
});
