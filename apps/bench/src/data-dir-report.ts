// The data directory's section of BENCHMARKS.md and its targets (issue 29), and memory per stored payment.
import type { DataDirResult } from './data-dir.js';
import type { MemoryResult } from './memory.js';
import type { TargetCheck } from './report.js';
import { ratio } from './stats.js';
import type { Endpoint } from './throughput.js';

/**
 * RSS per stored payment before issue 29, from BENCHMARKS.md at 887a8b0 (the memory table: 57.7
 * MiB at start, 332.9 MiB after 100,000 payments were stored): (332.9 − 57.7) MiB / 100,000.
 */
export const RSS_BYTES_PER_PAYMENT_BEFORE = Math.round(((332.9 - 57.7) * 2 ** 20) / 100_000);

const MiB = 2 ** 20;

/** Payments stored after the memory run's first phase: the mock keeps at most 100,000. */
const storedAfterFirstPhase = (memory: MemoryResult) => Math.min(memory.createsPerPhase, 100_000);

/**
 * RSS per stored payment after the memory run's first phase (what RSS grew by, over what is kept).
 *
 * @example
 * rssBytesPerPayment({ rssStartMiB: 57.7, rssAfterFirstMiB: 190, createsPerPhase: 200_000 } as MemoryResult); // 1387
 */
export function rssBytesPerPayment(memory: MemoryResult): number {
  return Math.round(
    ((memory.rssAfterFirstMiB - memory.rssStartMiB) * MiB) / storedAfterFirstPhase(memory),
  );
}

const rate = (result: DataDirResult, server: string, endpoint: Endpoint) =>
  result.throughput.find(
    (entry) => entry.server === server && entry.endpoint === endpoint && entry.correct,
  )?.requestsPerSecond;

/**
 * `--data-dir` throughput against the memory store in the same run, per endpoint.
 *
 * @example
 * dataDirRatios(result)['create.mock-data-dir/mock-quiet']; // e.g. 0.81
 */
export function dataDirRatios(result: DataDirResult): Record<string, number | null> {
  const ratios: Record<string, number | null> = {};
  for (const endpoint of ['create', 'retrieve'] as const) {
    ratios[`${endpoint}.mock-data-dir/mock-quiet`] = ratio(
      rate(result, 'mock-data-dir', endpoint),
      rate(result, 'mock-quiet', endpoint),
    );
  }
  return ratios;
}

/**
 * Issue 29's targets this run can check: creates with a data directory, start-up with 100,000
 * stored payments, and memory per stored payment halved.
 *
 * @example
 * dataDirTargets(result, memory).map((target) => target.met); // e.g. [true, true, false]
 */
export function dataDirTargets(
  result: DataDirResult | undefined,
  memory: MemoryResult | undefined,
): TargetCheck[] {
  const create =
    result === undefined ? null : dataDirRatios(result)['create.mock-data-dir/mock-quiet'];
  const perPayment = memory === undefined ? undefined : rssBytesPerPayment(memory);
  const limit = Math.round(RSS_BYTES_PER_PAYMENT_BEFORE / 2);
  const startup = result?.startupMedianMs;
  const full = result !== undefined && result.payments >= 100_000;
  return [
    {
      name: 'creates/s with --data-dir / in memory (same run, both --quiet)',
      target: '≥ 0.5×',
      value: create === null || create === undefined ? 'n/a' : `${create.toFixed(2)}×`,
      met: create === null || create === undefined ? null : create >= 0.5,
    },
    {
      name: `start-up with ${result === undefined ? 'n/a' : result.payments.toLocaleString('en-US')} stored payments (spawn → a list answered)`,
      target: '≤ 2 s (100,000)',
      value:
        startup === undefined
          ? 'n/a'
          : `${(startup / 1000).toFixed(2)} s (empty directory: ${((result?.emptyStartupMedianMs ?? 0) / 1000).toFixed(2)} s)`,
      met: startup === undefined || !full ? null : startup <= 2000,
    },
    {
      name: `RSS per stored payment after 100,000 (before issue 29: ${RSS_BYTES_PER_PAYMENT_BEFORE.toLocaleString('en-US')} B)`,
      target: `≤ ${limit.toLocaleString('en-US')} B (halved)`,
      value: perPayment === undefined ? 'n/a' : `${perPayment.toLocaleString('en-US')} B`,
      met:
        perPayment === undefined || memory === undefined || memory.createsPerPhase < 100_000
          ? null
          : perPayment <= limit,
    },
  ];
}

/**
 * The "Data directory" section of BENCHMARKS.md.
 *
 * @example
 * renderDataDir(result).join('\n').startsWith('\n## Data directory'); // true
 */
export function renderDataDir(result: DataDirResult): string[] {
  const ratios = dataDirRatios(result);
  const times = (value: number | null | undefined) =>
    value === null || value === undefined ? 'n/a' : `${value.toFixed(2)}×`;
  const perPayment = Math.round(result.directoryBytes / result.payments);
  return [
    '',
    '## Data directory',
    '',
    `The mock (CLI, \`--quiet\`) in memory and with \`--data-dir\` (each change written before its answer, fdatasync once a second), measured in the same run with 2 s rounds; then a fresh directory filled with ${result.payments.toLocaleString('en-US')} creates over ${result.keys.toLocaleString('en-US')} keys (each with an \`Idempotency-Key\`), stopped with SIGTERM, and restarted ${result.startupRunsMs.length} times: start-up is from spawning the CLI to its first \`GET /v1/payments\` answered, beside an empty directory.`,
    '',
    '| endpoint | in memory req/s | --data-dir req/s | --data-dir / memory | --data-dir p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...(['create', 'retrieve'] as const).map((endpoint) => {
      const memory = result.throughput.find(
        (entry) => entry.server === 'mock-quiet' && entry.endpoint === endpoint,
      );
      const durable = result.throughput.find(
        (entry) => entry.server === 'mock-data-dir' && entry.endpoint === endpoint,
      );
      return `| ${endpoint} | ${Math.round(memory?.requestsPerSecond ?? 0).toLocaleString('en-US')} | ${Math.round(durable?.requestsPerSecond ?? 0).toLocaleString('en-US')} | ${times(ratios[`${endpoint}.mock-data-dir/mock-quiet`])} | ${durable?.p99Ms.toFixed(2) ?? 'n/a'} |`;
    }),
    '',
    '| payments | fill | not 201 | directory | on disk per payment | RSS after the fill | start-up (median) | runs ms | empty directory |',
    '|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    `| ${result.payments.toLocaleString('en-US')} | ${result.fillSeconds.toFixed(1)} s | ${result.fillFailures} | ${(result.directoryBytes / MiB).toFixed(1)} MiB | ${perPayment.toLocaleString('en-US')} B | ${result.rssFilledMiB.toFixed(1)} MiB | ${Math.round(result.startupMedianMs)} ms | ${result.startupRunsMs.map((ms) => Math.round(ms)).join(', ')} | ${Math.round(result.emptyStartupMedianMs)} ms |`,
  ];
}
