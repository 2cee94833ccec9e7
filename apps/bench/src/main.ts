// The bench command: `node dist/main.js [--smoke | --quick] [--out-dir DIR]`; full runs write BENCHMARKS.md at the root.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchDirectory } from './owned.js';
import { BENCH_DIR, REPO_ROOT } from './paths.js';
import { type ReportPaths, runBench } from './run.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      smoke: { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
      'out-dir': { type: 'string' },
    },
  });
  const mode = values.smoke ? 'smoke' : values.quick ? 'quick' : 'full';
  let paths: ReportPaths;
  if (values['out-dir'] !== undefined) {
    mkdirSync(values['out-dir'], { recursive: true });
    paths = {
      markdown: join(values['out-dir'], 'BENCHMARKS.md'),
      json: join(values['out-dir'], 'BENCHMARKS.json'),
    };
  } else if (mode === 'full') {
    mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
    paths = {
      markdown: join(REPO_ROOT, 'BENCHMARKS.md'),
      json: join(BENCH_DIR, 'results/latest.json'),
    };
  } else {
    // Kept after the run (it holds the report); removed if the run is stopped.
    const dir = benchDirectory('bench-smoke-', { keepAtExit: true });
    paths = { markdown: join(dir, 'BENCHMARKS.md'), json: join(dir, 'BENCHMARKS.json') };
  }
  await runBench(mode, paths);
  // The report is written and every server stopped: handles the attack drivers leave behind
  // (their held sockets' timers) kept the process alive for about a minute after a full run.
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
