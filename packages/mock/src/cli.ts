// The `payment-service-mock` command: starts the sandbox in a node whose heap limit fits its memory budget.
import { getHeapStatistics } from 'node:v8';
import { heapLimitFlags } from './cli/heap-limit.js';

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
  // Loaded only here: a start with the heap limit set (the bin's shebang) needs none of it.
  const { relaunch } = await import('./cli/relaunch.js');
  await relaunch(main, flags, args);
}
