// Compares the (operation, status) pairs the spec declares with those the tests exercised, and prints the table.

import type { OperationEntry } from '@payment-service/contract/toolkit';
import type { ExerciseRecord } from './recording-fetch.js';

/** One declared (operation, status) pair and the targets that exercised it. */
export interface CoverageRow {
  operation: string;
  method: string;
  path: string;
  statusKey: string;
  targets: string[];
}

/** The coverage of a run: every declared pair, and the pairs still missing. */
export interface Coverage {
  rows: CoverageRow[];
  missing: CoverageRow[];
}

/**
 * Matches exercise records to the declared pairs.
 *
 * @example
 * const coverage = computeCoverage(validator.operations, records);
 * coverage.missing.length === 0;
 */
export function computeCoverage(operations: OperationEntry[], records: ExerciseRecord[]): Coverage {
  const rows: CoverageRow[] = [];
  for (const operation of operations) {
    const name = `${operation.spec}:${operation.operationId}`;
    for (const statusKey of operation.statusKeys) {
      const targets = new Set<string>();
      for (const record of records) {
        if (record.operation === name && record.statusKey === statusKey) targets.add(record.target);
      }
      rows.push({
        operation: name,
        method: operation.method,
        path: operation.pathTemplate,
        statusKey,
        targets: [...targets].sort(),
      });
    }
  }
  rows.sort(
    (a, b) => a.operation.localeCompare(b.operation) || a.statusKey.localeCompare(b.statusKey),
  );
  return { rows, missing: rows.filter((row) => row.targets.length === 0) };
}

/**
 * Renders the coverage as a fixed-width text table, one line per declared pair.
 *
 * @example
 * console.log(formatCoverage(coverage));
 */
export function formatCoverage(coverage: Coverage): string {
  const header = ['operation', 'status', 'exercised by'];
  const lines = coverage.rows.map((row) => [
    row.operation,
    row.statusKey,
    row.targets.length > 0 ? row.targets.join(', ') : 'NEVER',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]?.length ?? 0)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const covered = coverage.rows.length - coverage.missing.length;
  return [
    render(header),
    render(widths.map((width) => '-'.repeat(width))),
    ...lines.map(render),
    `${covered} of ${coverage.rows.length} declared (operation, status) pairs exercised`,
  ].join('\n');
}
