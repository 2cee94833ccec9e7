// Run-wide setup: a folder for the exercise log, and at the end the coverage table and the drift report.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CheckLedger,
  describeProvenance,
  indexOperations,
  specDocuments,
} from '@payment-service/contract/toolkit';
import type { TestProject } from 'vitest/node';
import { computeCoverage, formatCoverage } from './coverage.js';
import type { ExerciseRecord } from './recording-fetch.js';

declare module 'vitest' {
  export interface ProvidedContext {
    recordDir: string;
  }
}

function readRecords(recordDir: string): ExerciseRecord[] {
  const records: ExerciseRecord[] = [];
  for (const file of readdirSync(recordDir)) {
    for (const line of readFileSync(join(recordDir, file), 'utf8').split('\n')) {
      if (line) records.push(JSON.parse(line) as ExerciseRecord);
    }
  }
  return records;
}

/**
 * The drift report of a run: every broken schema check, grouped by check and operation with a
 * count, documented ones first (the package's ledger does the grouping and the provenance).
 */
function driftReport(records: ExerciseRecord[]): { text: string; failed: number } {
  const ledger = new CheckLedger();
  for (const record of records) {
    for (const violation of record.violations) {
      ledger.record({ ...violation, operation: record.operation }, 'schema', violation);
    }
  }
  const failed = ledger.results().filter((check) => check.outcome === 'failed');
  const lines = failed.map(
    (check) =>
      `  ${check.failures}× ${check.operation} ${check.id}: expected ${check.example?.expected}, got ${check.example?.actual} (${describeProvenance(check.element.provenance)})`,
  );
  return {
    text: `Drift report: ${records.length} responses checked against the spec, ${failed.length} check(s) failed${lines.length ? `\n${lines.join('\n')}` : ''}`,
    failed: failed.length,
  };
}

/**
 * Vitest global setup: provides `recordDir`; the teardown prints coverage and drift and fails the run when
 * a declared (operation, status) pair was never exercised (`CONTRACT_PARTIAL=1` allows it when
 * running a subset of files) or any response broke the spec.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ test: { globalSetup: ['./src/global-setup.ts'] } });
 */
export default function setup(project: TestProject) {
  const recordDir = mkdtempSync(join(tmpdir(), 'contract-tests-'));
  project.provide('recordDir', recordDir);

  return () => {
    const records = readRecords(recordDir);
    rmSync(recordDir, { recursive: true, force: true });
    if (records.length === 0) return;
    const coverage = computeCoverage(indexOperations(specDocuments), records);
    console.log(
      `\nSpec coverage: declared (operation, status) pairs against those exercised\n${formatCoverage(coverage)}\n`,
    );
    const drift = driftReport(records);
    console.log(drift.text);
    if (drift.failed > 0) process.exitCode = 1;
    if (coverage.missing.length > 0 && process.env.CONTRACT_PARTIAL !== '1') {
      console.error(
        `FAIL spec coverage: ${coverage.missing.length} declared pair(s) never exercised: ${coverage.missing.map((row) => `${row.operation} ${row.statusKey}`).join(', ')}`,
      );
      process.exitCode = 1;
    }
  };
}
