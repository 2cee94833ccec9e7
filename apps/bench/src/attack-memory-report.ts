// The "Memory under attack" section of BENCHMARKS.md and its target, from the attack replays.
import {
  ATTACK_RSS_LIMIT_MIB,
  type AttackMemoryResult,
  DEFAULT_STORE_BUDGET_MIB,
} from './attack-memory.js';

/** How much slower a neighbour's reads may get while an attack runs (median, same CLI). */
export const MAX_NEIGHBOUR_SLOWDOWN = 2;

/** A neighbour's baseline: its quiet latency, or under the same load of ordinary requests. */
function baselineMs(neighbour: NonNullable<AttackMemoryResult['neighbour']>): number {
  return Math.max(neighbour.quietMs, neighbour.ordinaryLoadMs ?? 0);
}

/** Whether a replay kept every promise: alive, under the RSS limit, no 5xx, a neighbour served. */
function withinPromise(row: AttackMemoryResult): boolean {
  const neighbourOk =
    row.neighbour === undefined ||
    (row.neighbour.attackFailures === 0 &&
      row.neighbour.attackMs <= MAX_NEIGHBOUR_SLOWDOWN * baselineMs(row.neighbour));
  return row.withinLimit && row.serverErrors === 0 && neighbourOk;
}

/**
 * The target row: every replay left the process alive under the RSS limit (null if none ran).
 *
 * @example
 * attackMemoryTarget(rows).met; // true
 */
export function attackMemoryTarget(rows: AttackMemoryResult[]): {
  name: string;
  target: string;
  value: string;
  met: boolean | null;
} {
  const worst = Math.max(
    ...rows.map((row) => (row.alive ? row.peakRssMiB : Number.POSITIVE_INFINITY)),
  );
  return {
    name: `peak RSS under the worst attack (process alive, no 5xx, a neighbour's reads within ${MAX_NEIGHBOUR_SLOWDOWN}× quiet)`,
    target: `< ${ATTACK_RSS_LIMIT_MIB} MiB`,
    value:
      rows.length === 0
        ? 'n/a'
        : Number.isFinite(worst)
          ? `${worst.toFixed(1)} MiB`
          : 'process died',
    met: rows.length === 0 ? null : rows.every(withinPromise),
  };
}

/**
 * Renders the section as Markdown lines.
 *
 * @example
 * out.push(...renderAttackMemory(report.attackMemory));
 */
export function renderAttackMemory(rows: AttackMemoryResult[]): string[] {
  const out = [
    '',
    '## Memory under attack',
    '',
    `The worst case of each attack of issues 10 and 23, replayed by \`@payment-service/reliability\`'s drivers on its own fresh CLI (\`--quiet\`, default budgets: ${DEFAULT_STORE_BUDGET_MIB} MiB for the stores, 16 MiB per key). Peak RSS is the high-water mark (VmHWM in /proc) of the CLI's process (started with the bin's shebang flag, \`--max-old-space-size=384\`, as \`npx\` starts it: one process, no relaunch), against the promise of ${ATTACK_RSS_LIMIT_MIB} MiB whatever clients do. 5xx counts every answer ≥ 500 or no answer, except 503 \`sandbox_full\`.`,
    '',
    `A neighbour's latency is the median of its own lists (\`GET /v1/payments?limit=10\`, one after another) on the same CLI: quiet, just before the attack; under the same load made of ordinary creates, when the attack is a load (on two cores shared with the load generator, four busy clients slow a fifth whatever they send); and while the attack runs. The promise is at most ${MAX_NEIGHBOUR_SLOWDOWN}× the larger of the first two.`,
    '',
    '| attack | load | s | RSS at start | peak RSS | alive | 5xx | neighbour p50: quiet / ordinary load → attack | outcome | |',
    '|---|---|---:|---:|---:|---|---:|---|---|---|',
  ];
  for (const row of rows) {
    const neighbour =
      row.neighbour === undefined
        ? '–'
        : `${row.neighbour.quietMs.toFixed(1)}${row.neighbour.ordinaryLoadMs === undefined ? '' : ` / ${row.neighbour.ordinaryLoadMs.toFixed(1)}`} → ${row.neighbour.attackMs.toFixed(1)} ms (${(row.neighbour.attackMs / baselineMs(row.neighbour)).toFixed(2)}×)${row.neighbour.attackFailures > 0 ? `, ${row.neighbour.attackFailures} refused` : ''}`;
    out.push(
      `| ${row.attack} | ${row.load} | ${row.seconds.toFixed(1)} | ${row.rssStartMiB.toFixed(1)} MiB | ${row.alive ? `${row.peakRssMiB.toFixed(1)} MiB` : 'n/a'} | ${row.alive ? 'yes' : '**no**'} | ${row.serverErrors} | ${neighbour} | ${row.outcome} | ${withinPromise(row) ? 'within' : '**over**'} |`,
    );
  }
  return out;
}
