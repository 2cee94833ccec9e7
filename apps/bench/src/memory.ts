// Memory: the mock's resident set after many creates over many keys, and after as many again.

import { Agent } from 'node:http';
import { treeStatusMiB } from '@payment-service/reliability';
import { sendRequest } from './http-client.js';
import type { BenchSettings } from './modes.js';
import { CREATE_BODY_TEXT } from './payment-request.js';
import type { RunningServer } from './servers.js';

/** RSS in MiB at start and after each phase, and whether the second phase stayed flat. */
export interface MemoryResult {
  createsPerPhase: number;
  keys: number;
  rssStartMiB: number;
  rssAfterFirstMiB: number;
  rssAfterSecondMiB: number;
  /** rssAfterSecond / rssAfterFirst; about 1 when memory plateaus. */
  growth: number;
  plateaus: boolean;
  /** Every create answered 201. */
  correct: boolean;
}

/** The most RSS may grow in the second phase and still count as a plateau. */
export const PLATEAU_TOLERANCE = 1.15;

/**
 * The resident set of a process and its descendants in MiB, from /proc (Linux).
 *
 * @example
 * residentMiB(process.pid); // e.g. 52.3
 */
export function residentMiB(pid: number): number {
  // Started without the bin's heap flag, the CLI relaunches node once: the server is the whole process tree.
  return treeStatusMiB(pid, 'VmRSS');
}

/**
 * Sends `count` creates with unique Idempotency-Keys, spread round-robin over `keys` API keys,
 * from 50 keep-alive connections. Returns how many did not answer 201.
 *
 * @example
 * await createMany('http://127.0.0.1:4010', 1000, 10, 'phase1'); // 0
 */
export async function createMany(
  baseUrl: string,
  count: number,
  keys: number,
  tag: string,
): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 50 });
  let next = 0;
  let failures = 0;
  const worker = async () => {
    for (;;) {
      const index = next++;
      if (index >= count) return;
      const key = `sk_test_bench_memory_${String(index % keys).padStart(6, '0')}`;
      const answer = await sendRequest(`${baseUrl}/v1/payments`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': `${tag}-${index}`,
        },
        body: CREATE_BODY_TEXT,
        agent,
      }).catch(() => ({ status: 0, text: '' }));
      if (answer.status !== 201) failures++;
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  agent.destroy();
  return failures;
}

/** A pause for the heap to settle before RSS is read: 1 s, or 0.2 s in a smoke run (which reads no figure). */
const settle = (settings: BenchSettings) =>
  new Promise((resolve) => setTimeout(resolve, settings.mode === 'smoke' ? 200 : 1000));

/**
 * Measures RSS of a freshly started mock before and after two equal phases of creates.
 *
 * @example
 * const result = await measureMemory(mockQuiet, settingsFor('full'), console.error);
 * result.plateaus; // true
 */
export async function measureMemory(
  server: RunningServer,
  settings: BenchSettings,
  log: (line: string) => void,
): Promise<MemoryResult> {
  const count = settings.memoryCreatesPerPhase;
  const keys = settings.memoryKeys;
  const rssStartMiB = residentMiB(server.pid);
  let failures = await createMany(server.url, count, keys, 'phase1');
  await settle(settings);
  const rssAfterFirstMiB = residentMiB(server.pid);
  log(
    `memory: start ${rssStartMiB.toFixed(1)} MiB, after ${count} creates ${rssAfterFirstMiB.toFixed(1)} MiB`,
  );
  failures += await createMany(server.url, count, keys, 'phase2');
  await settle(settings);
  const rssAfterSecondMiB = residentMiB(server.pid);
  log(`memory: after ${count} more ${rssAfterSecondMiB.toFixed(1)} MiB`);
  const growth = rssAfterSecondMiB / rssAfterFirstMiB;
  return {
    createsPerPhase: count,
    keys,
    rssStartMiB,
    rssAfterFirstMiB,
    rssAfterSecondMiB,
    growth,
    plateaus: growth <= PLATEAU_TOLERANCE,
    correct: failures === 0,
  };
}
