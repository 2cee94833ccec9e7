// Summarises spec violations by provenance: a documented one is a bug here, an inferred one is a model to correct.
import type { ExerciseRecord } from './recording-fetch.js';

/** How many distinct failures each section lists. */
const MAX_LINES = 40;

/** The drift report's text and how many violations it holds. */
export interface DriftReport {
  text: string;
  violationCount: number;
  documentedCount: number;
  inferredCount: number;
}

/**
 * Groups the violations of a run into documented and inferred checks, each distinct message once with a count.
 *
 * @example
 * const report = formatDrift(records);
 * if (report.documentedCount > 0) console.error(report.text);
 */
export function formatDrift(records: ExerciseRecord[]): DriftReport {
  const checks = records.length;
  const groups = { documented: new Map<string, number>(), inferred: new Map<string, number>() };
  for (const record of records) {
    for (const violation of record.violations) {
      const where =
        record.operation === 'undeclared' ? 'a route outside the spec' : record.operation;
      const key = `${record.target} ${where} → ${record.status}: ${violation.message} (${violation.source})`;
      const group = groups[violation.provenance];
      group.set(key, (group.get(key) ?? 0) + 1);
    }
  }
  const section = (title: string, group: Map<string, number>) =>
    group.size === 0
      ? [`${title}: none`]
      : [
          `${title}:`,
          ...[...group].slice(0, MAX_LINES).map(([message, count]) => `  ${count}× ${message}`),
          ...(group.size > MAX_LINES
            ? [`  … and ${group.size - MAX_LINES} more distinct failures`]
            : []),
        ];
  const documentedCount = [...groups.documented.values()].reduce((a, b) => a + b, 0);
  const inferredCount = [...groups.inferred.values()].reduce((a, b) => a + b, 0);
  const text = [
    `Drift report: ${checks} responses checked against the spec`,
    ...section('Documented checks failed (a bug: the provider states this)', groups.documented),
    ...section(
      'Inferred checks failed (our model of a "not shown" part needs correcting)',
      groups.inferred,
    ),
  ].join('\n');
  return { text, violationCount: documentedCount + inferredCount, documentedCount, inferredCount };
}
