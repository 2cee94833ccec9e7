// The memory bound the attacks check: what RSS a sandbox with a given byte budget may reach.
import { pause } from './http.js';
import type { Sandbox } from './sandbox.js';

/** The documented promise: whatever clients do, the process stays under this RSS (MiB). */
export const PROCESS_RSS_LIMIT_MIB = 512;

/**
 * The most RSS (MiB) a sandbox started at `startMiB` with a `budgetMiB` store budget may
 * reach: the start (runtime, code, compiled schemas), twice the budget (the budget counts the
 * bytes of the data; V8's objects, hidden classes and hash tables around them cost about as
 * much again), and 64 MiB for garbage not yet collected and socket buffers.
 *
 * @example
 * rssBoundMiB(70, 32); // 198
 */
export function rssBoundMiB(startMiB: number, budgetMiB: number): number {
  return startMiB + 2 * budgetMiB + 64;
}

/**
 * Samples the sandbox's RSS every 200 ms for `windowMs` (the server may still be working
 * through what it accepted) and returns the largest sample in MiB.
 *
 * @example
 * await settledRssMiB(sandbox, 3000); // e.g. 120.4
 */
export async function settledRssMiB(sandbox: Sandbox, windowMs: number): Promise<number> {
  let largest = sandbox.rssMiB();
  for (let waited = 0; waited < windowMs && sandbox.alive(); waited += 200) {
    await pause(200);
    if (sandbox.alive()) largest = Math.max(largest, sandbox.rssMiB());
  }
  return largest;
}
