// The "Memory under attack" section of BENCHMARKS.md and its target, from the attack replays.
import {
  ATTACK_RSS_LIMIT_MIB,
  type AttackMemoryResult,
  DEFAULT_STORE_BUDGET_MIB,
} from './attack-memory.js';

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
    name: 'peak RSS under the worst attack (process alive, no 5xx)',
    target: `< ${ATTACK_RSS_LIMIT_MIB} MiB`,
    value:
      rows.length === 0
        ? 'n/a'
        : Number.isFinite(worst)
          ? `${worst.toFixed(1)} MiB`
          : 'process died',
    met: rows.length === 0 ? null : rows.every((row) => row.withinLimit && row.serverErrors === 0),
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
    `The worst case of each attack of issue 10, replayed by \`@payment-service/reliability\`'s drivers on its own fresh CLI (\`--quiet\`, default budgets: ${DEFAULT_STORE_BUDGET_MIB} MiB for the stores, 16 MiB per key). Peak RSS is the high-water mark (VmHWM in /proc) summed over the CLI's processes (started as \`node dist/cli.js\`, it relaunches node once with a heap limit), against the promise of ${ATTACK_RSS_LIMIT_MIB} MiB whatever clients do. 5xx counts every answer ≥ 500 or no answer, except 503 \`sandbox_full\`.`,
    '',
    '| attack | load | s | RSS at start | peak RSS | alive | 5xx | outcome | |',
    '|---|---|---:|---:|---:|---|---:|---|---|',
  ];
  for (const row of rows) {
    out.push(
      `| ${row.attack} | ${row.load} | ${row.seconds.toFixed(1)} | ${row.rssStartMiB.toFixed(1)} MiB | ${row.alive ? `${row.peakRssMiB.toFixed(1)} MiB` : 'n/a'} | ${row.alive ? 'yes' : '**no**'} | ${row.serverErrors} | ${row.outcome} | ${row.withinLimit && row.serverErrors === 0 ? 'within' : '**over**'} |`,
    );
  }
  return out;
}
