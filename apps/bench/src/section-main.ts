// What a command that runs one section of the bench alone shares: `--smoke`, the load tool, a log directory (removed however the command ends), the closing line with the load average, the exit code.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { chooseLoadTool, type LoadTool } from './load/index.js';
import { autocannonVersion } from './machine.js';
import { type BenchSettings, settingsFor } from './modes.js';
import { benchDirectory, removeBenchDirectory } from './owned.js';

/** What a section is given to run. */
export interface SectionRun {
  settings: BenchSettings;
  tool: LoadTool;
  logDir: string;
  log(line: string): void;
}

/**
 * Runs one section (`node dist/<section>-main.js [--smoke]`): prints what `run` returns, then
 * the mode, the tool, the time taken and the load average at start and end; exits 1 on a failure.
 *
 * @example
 * runSectionMain('stages', async ({ settings, tool, logDir, log }) => render(await measure(…)));
 */
export function runSectionMain(name: string, run: (section: SectionRun) => Promise<string>): void {
  const main = async () => {
    const { values } = parseArgs({ options: { smoke: { type: 'boolean', default: false } } });
    const settings = settingsFor(values.smoke ? 'smoke' : 'full');
    const tool = chooseLoadTool(autocannonVersion());
    const logDir = benchDirectory(`bench-${name}-`);
    const loadStart = loadavg()[0] ?? 0;
    const started = performance.now();
    try {
      const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
      process.stdout.write(await run({ settings, tool, logDir, log }));
      process.stdout.write(
        `\n${settings.mode} mode, ${tool.version}, ${settings.connections} connections, ${((performance.now() - started) / 1000).toFixed(1)} s; load average (1 min) ${loadStart.toFixed(2)} at start, ${(loadavg()[0] ?? 0).toFixed(2)} at end\n`,
      );
    } finally {
      removeBenchDirectory(logDir);
    }
  };
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`bench: failed: ${(error as Error).stack ?? error}\n`);
      process.exit(1);
    },
  );
}
