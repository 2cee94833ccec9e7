// How large the CLI lets V8's heap grow: sized from the memory budget, so the process stays under 512 MiB RSS.

import { DEFAULT_MEMORY_BUDGET_BYTES } from '../store/limits.js';
import { readCli } from './options.js';

/** Set in the environment of a CLI that was started with its heap limit (it never relaunches again). */
export const RELAUNCHED_ENV = 'PAYMENT_SERVICE_MOCK_HEAP_LIMITED';

const MIB = 1024 * 1024;

/**
 * The old-space limit for a sandbox budget: the budget (whose estimates run above the real heap)
 * plus 128 MiB for requests in flight and the server itself, and never under 192 MiB.
 *
 * @example
 * heapLimitMiB(256 * 1024 * 1024); // 384
 */
export function heapLimitMiB(memoryBudgetBytes: number): number {
  return Math.max(192, Math.ceil(memoryBudgetBytes / MIB) + 128);
}

/**
 * The node flag to relaunch the CLI with, or undefined when it runs as it is: already relaunched;
 * a `--max-old-space-size` was given (the bin's shebang gives the default one, or the user set
 * theirs on the command line or in NODE_OPTIONS) and the heap it allows (`currentLimitMiB`)
 * holds the budget; or the arguments ask for help, the version or are wrong (the CLI answers
 * those itself). A given limit too small for a larger `--memory-budget` is raised.
 *
 * V8 sizes its heap to the machine, not to the live data: under a fast allocation rate a
 * 200 MiB live set grew the process past 600 MiB RSS. A limit makes it collect sooner instead.
 *
 * @example
 * heapLimitFlags(['--port', '0'], [], {}, 4144); // ['--max-old-space-size=384']
 * heapLimitFlags(['--port', '0'], ['--max-old-space-size=384'], {}, 432); // undefined
 */
export function heapLimitFlags(
  args: string[],
  execArgv: readonly string[],
  env: Record<string, string | undefined>,
  currentLimitMiB: number,
): string[] | undefined {
  if (env[RELAUNCHED_ENV] === '1') return undefined;
  const request = readCli(args, env);
  if (request.kind !== 'serve') return undefined;
  const wanted = heapLimitMiB(request.settings.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES);
  const given = (text: string) => /--max-old-space-size\b/.test(text);
  // V8's limit adds the young generation to the old space the flag sets, so it is never below it.
  if ((execArgv.some(given) || given(env.NODE_OPTIONS ?? '')) && currentLimitMiB >= wanted)
    return undefined;
  return [`--max-old-space-size=${wanted}`];
}
