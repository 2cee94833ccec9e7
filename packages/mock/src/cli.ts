// The `payment-service-mock` command: starts the sandbox in a node whose heap limit fits its memory budget.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { heapLimitFlags, RELAUNCHED_ENV } from './cli/heap-limit.js';
import { watchLauncher } from './cli/launcher-watch.js';

const args = process.argv.slice(2);
const flags = heapLimitFlags(
  args,
  process.execArgv,
  process.env,
  getHeapStatistics().heap_size_limit / (1024 * 1024),
);

// cli/main.js bundled with its dependencies into one file (scripts/bundle-cli.mjs): it loads
// ~70 ms faster than the ~150 modules it is made of.
const main = new URL('./cli-bundle.js', import.meta.url);

if (flags === undefined) {
  await import(main.href);
} else {
  // One relaunch with the limit: stdio is shared, signals are passed on, the exit code is kept.
  const child = spawn(
    process.execPath,
    [...process.execArgv, ...flags, fileURLToPath(main), ...args],
    { stdio: 'inherit', env: { ...process.env, [RELAUNCHED_ENV]: '1' } },
  );
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => child.kill(signal));
  }
  watchLauncher(process.env, () => child.kill('SIGTERM'));
  child.on('error', (error) => {
    process.stderr.write(`payment-service-mock: could not start: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0)));
  });
}
