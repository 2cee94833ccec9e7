// The stage table's section of BENCHMARKS.md: server CPU per request by stage, allocations and GC, for each build side by side.

import type { RoundOrder } from './round-plan.js';
import { OTHER_ROWS, STAGE_LABELS, STAGES, type StageRow } from './stage-map.js';
import { medianOverRounds, pairedRoundRatios } from './stage-rounds.js';
import type { StageResult, StagesResult } from './stages.js';
import { ratio } from './stats.js';
import type { Endpoint } from './throughput.js';

/** Whether a result may be read as a measurement: every answer 2xx, no load error, some requests. */
export const stageResultValid = (result: StageResult): boolean =>
  result.requests > 0 &&
  result.profiledRequests > 0 &&
  result.non2xxServer === 0 &&
  result.non2xxClient === 0 &&
  result.loadErrors === 0;

const us = (value: number) => (value >= 10 ? value.toFixed(0) : value.toFixed(1));
const times = (value: number | null) => (value === null ? '' : `${value.toFixed(2)}×`);
const bytes = (value: number) => Math.round(value).toLocaleString('en-US');

/** The results of an endpoint in column order: the previous build first, then the current one. */
function columns(stages: StagesResult, endpoint: Endpoint): StageResult[] {
  return stages.results
    .filter((result) => result.endpoint === endpoint)
    .sort((a, b) => (a.build === b.build ? 0 : a.build === 'previous' ? -1 : 1));
}

/**
 * Renders the stage table: per endpoint, a column per build (the build before first) and, with
 * two, the current / previous ratio; rows are the stages, GC, native work, what the map could not
 * place, the other threads and the total; then allocations, GC and the answers counted.
 *
 * @example
 * out.push(...renderStages(report.stages));
 */
export function renderStages(stages: StagesResult): string[] {
  const { sizes } = stages;
  const out: string[] = [
    '',
    '## Server CPU per request, by stage',
    '',
    `Each build of the mock runs as its CLI with default settings (it logs each request) on the memory store, started from the modules its CLI bundle is made from (\`dist/cli/main.js\`, unminified, so that profile frames name the mock's modules and functions; d7ac2fd, from before the CLI's launcher, from its \`dist/cli.js\`), with \`stage-probe.js\` loaded (\`node --import\`). Per endpoint, after ${sizes.warmupRequests.toLocaleString('en-US')} requests of warm-up, ${sizes.rounds} round(s) take the builds in turn, the oldest first in odd rounds and this checkout first in even ones (a build measured second runs on a machine the first one has just loaded); in a round each build runs a window unprofiled, then one profiled, each ${sizes.windowRequests > 0 ? `${sizes.windowRequests.toLocaleString('en-US')} requests` : `${sizes.windowSeconds} s`} (${stages.tool}). Creates are the throughput section's (1,000 keys, a fresh Idempotency-Key each, the keys emptied before each timed window); retrieves read one payment.`,
    '',
    "- **CPU per request**: the median over the rounds of each unprofiled window's `process.cpuUsage()` (every thread) and the main thread's CPU from `/proc/self/task/<pid>/stat` (10 ms ticks), over the answers the server finished (counted inside it, `http.server.response.finish`).",
    "- **Order**: the total again as the median over the rounds of each order alone, with its ratios, and each round's total: where the two orders disagree, the order moved the figure, and the medians over both orders are the ones to read. The ratio within each round compares two builds measured a few seconds apart, so a load that changes between rounds moves it less than the ratio of the medians.",
    `- **By stage**: the main thread's CPU per request × each row's share of the profiled windows' CPU samples (V8's profiler every ${sizes.cpuIntervalUs} µs; idle left out). A sample goes to the stage of the innermost frame on its stack that \`apps/bench/src/stage-map.ts\` places (the mock's modules, and named functions of them; an earlier build's modules that moved by its legacy part); shared helpers take their caller's stage; with no mock frame placed, @hono/node-server's and Node's answer-writing functions are the response write and the rest is HTTP parse and Hono. "Other threads" is process CPU beyond the main thread (GC helpers, the compiler, libuv).`,
    `- **Allocated per request**: bytes from the used heap before each GC less after the one before (\`v8.GCProfiler\`, unprofiled windows: every byte the JavaScript heap took, exact to the GCs' own accounting); objects and bytes by stage from V8's sampling heap profiler (profiled windows, one sample per ~${Math.round(sizes.heapIntervalBytes / 1024)} KiB, collected objects included), an estimate: its bytes beside the exact figure show its error.`,
    "- **GC**: the main thread's GC (the profile's `(garbage collector)` samples) as a share of process CPU; pauses counted by `v8.GCProfiler`.",
    '- A window with any answer outside 2xx, counted by the server or by the load tool, makes its column invalid: a refusal is never measured as speed.',
  ];
  for (const endpoint of ['create', 'retrieve'] as const) {
    const results = columns(stages, endpoint);
    if (results.length === 0) continue;
    // With the current build last, a ratio column per build before it: current / that build.
    const current = results.at(-1);
    const befores = current?.build === 'current' ? results.slice(0, -1) : [];
    const header = results.map((result) => `${result.label} µs`);
    const ratioHeader = befores.map((result) =>
      befores.length === 1 ? 'current / previous' : `current / ${result.label.split(' ')[0]}`,
    );
    out.push(
      '',
      `### ${endpoint === 'create' ? 'Create (`POST /v1/payments`)' : 'Retrieve (`GET /v1/payments/{id}`)'}`,
      '',
      `| stage | ${[...header, ...ratioHeader].join(' | ')} |`,
      `|---|${[...results, ...befores].map(() => '---:').join('|')}|`,
    );
    const row = (label: string, values: number[]) => {
      const last = values.at(-1) ?? 0;
      const changes = befores.map((_, index) => times(ratio(last, values[index] ?? 0)));
      out.push(`| ${label} | ${[...values.map(us), ...changes].join(' | ')} |`);
    };
    for (const stage of [...STAGES, ...OTHER_ROWS] as StageRow[]) {
      row(
        STAGE_LABELS[stage],
        results.map((result) => result.stageUs[stage]),
      );
    }
    const main = results.map((result) => result.mainThreadUs ?? result.cpuUs);
    row(
      'other threads (GC helpers, compiler, libuv)',
      results.map((result, index) => result.cpuUs - (main[index] ?? 0)),
    );
    row(
      '**total: server CPU per request**',
      results.map((result) => result.cpuUs),
    );
    const orderRow = (label: string, order: RoundOrder) => {
      const values = results.map((result) => medianOverRounds(result.rounds, order)?.cpuUs);
      const last = values.at(-1);
      const changes = befores.map((_, index) => times(ratio(last, values[index])));
      const cells = values.map((value) => (value === undefined ? '–' : us(value)));
      out.push(`| ${label} | ${[...cells, ...changes].join(' | ')} |`);
    };
    orderRow('total, rounds run oldest first (odd): median', 'listed');
    orderRow('total, rounds run this checkout first (even): median', 'reversed');
    if (current !== undefined && befores.length > 0) {
      const paired = befores.map((before) => {
        const { perRound, median } = pairedRoundRatios(current.rounds, before.rounds);
        if (median === null) return '–';
        return `${times(median)} (${perRound.map((one) => one.ratio.toFixed(2)).join(', ')})`;
      });
      out.push(
        `| current / earlier build within each round: median (rounds 1, 2, …) | ${[...results.map(() => ''), ...paired].join(' | ')} |`,
      );
    }
    const line = (label: string, render: (result: StageResult) => string) =>
      out.push(`| ${label} | ${[...results.map(render), ...befores.map(() => '')].join(' | ')} |`);
    line('total in each round (rounds 1, 2, …)', (result) =>
      [...result.rounds]
        .sort((a, b) => a.round - b.round)
        .map((round) => (round.requests > 0 ? us(round.cpuUs) : '–'))
        .join(', '),
    );
    line('bytes allocated per request (heap around GCs)', (result) => bytes(result.allocatedBytes));
    line('bytes allocated per request (sampled)', (result) => bytes(result.sampledBytes));
    line('objects allocated per request (sampled)', (result) => bytes(result.objects));
    line('GC, % of server CPU (main thread)', (result) => `${result.gcPercent.toFixed(1)} %`);
    line(
      'GC pauses per 1,000 requests; their wall time per request, µs',
      (result) => `${result.gcPausesPerThousand.toFixed(1)}; ${us(result.gcPauseUs)}`,
    );
    line(
      'requests answered (unprofiled; profiled)',
      (result) =>
        `${result.requests.toLocaleString('en-US')}; ${result.profiledRequests.toLocaleString('en-US')}`,
    );
    line(
      'non-2xx (server; load tool); load errors',
      (result) =>
        `${result.non2xxServer}; ${result.non2xxClient}; ${result.loadErrors}${stageResultValid(result) ? '' : ' **invalid**'}`,
    );
    line(
      'CPU samples (busy); heap samples',
      (result) =>
        `${result.busySamples.toLocaleString('en-US')}; ${result.heapSamples.toLocaleString('en-US')}`,
    );
    line('requests/s while unprofiled (context only)', (result) =>
      Math.round(result.requestsPerSecond).toLocaleString('en-US'),
    );
    out.push(
      '',
      `Bytes allocated per request by stage (sampled): ${results
        .map(
          (result) =>
            `${result.label}: ${STAGES.filter((stage) => result.stageBytes[stage] >= 1)
              .map((stage) => `${stage} ${bytes(result.stageBytes[stage])}`)
              .join(', ')}`,
        )
        .join('; ')}.`,
    );
    const unplaced = results.filter((result) => Object.keys(result.unplaced).length > 0);
    for (const result of unplaced) {
      out.push(
        '',
        `Unattributed samples of ${result.label} (${endpoint}), by module: ${Object.entries(
          result.unplaced,
        )
          .map(([module, count]) => `\`${module}\` ${count}`)
          .join(', ')}.`,
      );
    }
  }
  return out;
}
