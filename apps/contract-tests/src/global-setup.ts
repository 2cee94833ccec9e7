// Run-wide setup: a folder for the exercise log, and at the end the coverage table and the drift report.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { computeCoverage, formatCoverage } from './coverage.js';
import { formatDrift } from './drift-report.js';
import type { ExerciseRecord } from './recording-fetch.js';
import { indexOperations, specDocuments } from './spec-index.js';

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
 * Vitest global setup: provides `recordDir`; the teardown prints coverage and drift and fails the run when
 * a declared (operation, status) pair was never exercised (against the mock; `CONTRACT_PARTIAL=1` allows it when
 * running a subset of files) or any response broke the spec.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ test: { globalSetup: ['./src/global-setup.ts'] } });
 */
export default function setup(project: TestProject) {
  const recordDir = mkdtempSync(join(tmpdir(), 'contract-tests-'));
  project.provide('recordDir', recordDir);
  const live = Boolean(process.env.CONTRACT_BASE_URL);

  return () => {
    const records = readRecords(recordDir);
    rmSync(recordDir, { recursive: true, force: true });
    if (records.length === 0) return;
    const coverage = computeCoverage(indexOperations(specDocuments), records);
    console.log(
      `\nSpec coverage: declared (operation, status) pairs against those exercised\n${formatCoverage(coverage)}\n`,
    );
    const drift = formatDrift(records);
    console.log(drift.text);
    if (drift.violationCount > 0) process.exitCode = 1;
    if (coverage.missing.length > 0 && !live && process.env.CONTRACT_PARTIAL !== '1') {
      console.error(
        `FAIL spec coverage: ${coverage.missing.length} declared pair(s) never exercised: ${coverage.missing.map((row) => `${row.operation} ${row.statusKey}`).join(', ')}`,
      );
      process.exitCode = 1;
    }
  };
}
