// Known failures (--baseline FILE): each with a reason and an optional expiry; reported as known and not failing the run, until the entry expires or the check passes again.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { CheckResult } from '../checks/ledger.js';
import { ConfigurationError } from '../errors.js';
import { cleanTargetText } from '../untrusted-text.js';
import { assertMatchesSchema } from './schema-errors.js';

/** One known failure: a check (on one operation, or all) that fails and is accepted, for a reason, until a date. */
export interface BaselineEntry {
  /** The check id, exactly: `createPayment.pending`, `schema.Payment.created_at`. */
  check: string;
  /** The operation it fails on; every operation when absent. */
  operation?: string;
  /** Why the failure is accepted (a ticket, a provider's answer). */
  reason: string;
  /** The last day (UTC, `YYYY-MM-DD`) the entry holds; from the next day it fails the run again. */
  expires?: string;
}

/** A baseline file's contents. */
export interface BaselineFile {
  $schema?: string;
  version: 1;
  known: BaselineEntry[];
}

/** A baseline as a run uses it: the file's entries and where they came from. */
export interface Baseline {
  /** The file, as given (for messages). */
  file: string;
  entries: BaselineEntry[];
}

/** What a baseline did to a run. */
export interface BaselineOutcome {
  file: string;
  /** Failures the baseline accepts. */
  known: number;
  /** How many of them are documented checks: the provider's own document is contradicted there. */
  knownDocumented?: number;
  /** Entries past their date whose check still fails: these fail the run. */
  expired: Array<{ check: string; operation?: string; expires: string }>;
  /** Entries whose check passed: remove them. */
  fixed: Array<{ check: string; operation?: string; reason: string }>;
}

/** The reason `--update-baseline` gives a new entry: replace it with the real one. */
export const PLACEHOLDER_REASON = 'TODO: say why this failure is accepted';

/** Where a baseline's `$schema` points when the package is installed. */
export const BASELINE_SCHEMA_PATH =
  './node_modules/@payment-service/contract/schema/baseline.schema.json';

/** The JSON Schema of a baseline file (published as `schema/baseline.schema.json`). */
export const baselineSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://github.com/payment-service/payment-service-kit/packages/contract/schema/baseline.schema.json',
  title: 'payment-service-contract baseline: known failures',
  type: 'object',
  required: ['version', 'known'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    version: { const: 1 },
    known: {
      type: 'array',
      items: {
        type: 'object',
        required: ['check', 'reason'],
        additionalProperties: false,
        properties: {
          check: {
            type: 'string',
            minLength: 1,
            description: 'the check id, exactly (`list` shows them)',
          },
          operation: {
            type: 'string',
            minLength: 1,
            description: 'the operation it fails on; every operation when absent',
          },
          reason: {
            type: 'string',
            minLength: 1,
            description: 'why the failure is accepted',
          },
          expires: {
            type: 'string',
            format: 'date',
            description: 'a date YYYY-MM-DD (UTC), the last day the entry holds',
          },
        },
      },
    },
  },
} as const;

/**
 * Parses and validates a baseline file's text; throws a ConfigurationError (exit 2) naming the field.
 *
 * @example
 * parseBaseline('{"version":1,"known":[{"check":"createPayment.pending","reason":"JIRA-12"}]}', 'baseline.json').entries.length; // 1
 */
export function parseBaseline(text: string, file: string): Baseline {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(
      `--baseline ${file}: not JSON (${cleanTargetText((error as Error).message, 200)})`,
    );
  }
  assertMatchesSchema(baselineSchema, value, 'baseline');
  const entries = (value as BaselineFile).known;
  const seen = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    const key = `${entry.operation ?? '*'}\u0000${entry.check}`;
    if (seen.has(key)) {
      throw new ConfigurationError(
        `baseline.known[${index}]: ${entry.check}${entry.operation ? ` on ${entry.operation}` : ''} is listed twice`,
      );
    }
    seen.add(key);
  }
  return { file, entries };
}

/**
 * Reads a baseline file; a missing file is an empty baseline only when `missingOk` (for `--update-baseline`).
 *
 * @example
 * const baseline = await readBaseline('/repo/contract-baseline.json', 'contract-baseline.json');
 */
export async function readBaseline(
  path: string,
  file: string,
  missingOk = false,
): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && missingOk)
      return { file, entries: [] };
    throw new ConfigurationError(
      `--baseline ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return parseBaseline(text, file);
}

/** The UTC date of a time, `YYYY-MM-DD`. */
export const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const matches = (entry: BaselineEntry, check: CheckResult) =>
  entry.check === check.id &&
  (entry.operation === undefined || entry.operation === check.operation);

/**
 * Marks a run's failed checks that the baseline knows (`baseline.state` `known`, or `expired` past
 * the entry's date, which still fails) and its passing checks that an entry names (`fixed`).
 *
 * @example
 * const { checks, outcome } = applyBaseline(report.checks, baseline, '2026-11-25');
 * outcome.fixed; // entries to remove
 */
export function applyBaseline<Check extends CheckResult>(
  checks: readonly Check[],
  baseline: Baseline,
  today: string,
): { checks: Check[]; outcome: BaselineOutcome } {
  const outcome: BaselineOutcome = {
    file: baseline.file,
    known: 0,
    knownDocumented: 0,
    expired: [],
    fixed: [],
  };
  const fixed = new Set<BaselineEntry>();
  const failing = new Set<BaselineEntry>();
  const marked = checks.map((check): Check => {
    const entry = baseline.entries.find((item) => matches(item, check));
    if (!entry || check.outcome === 'skipped') return check;
    const { baseline: _previous, ...plain } = check;
    const about = {
      // The file is the team's, but a report must stay one line per field.
      reason: cleanTargetText(entry.reason, 500),
      ...(entry.expires !== undefined ? { expires: entry.expires } : {}),
    };
    if (check.outcome === 'passed') {
      fixed.add(entry);
      return { ...plain, baseline: { state: 'fixed', ...about } } as Check;
    }
    failing.add(entry);
    if (entry.expires !== undefined && entry.expires < today) {
      if (
        !outcome.expired.some(
          (item) => item.check === entry.check && item.operation === entry.operation,
        )
      ) {
        outcome.expired.push({
          check: entry.check,
          ...(entry.operation ? { operation: entry.operation } : {}),
          expires: entry.expires,
        });
      }
      return { ...plain, baseline: { state: 'expired', ...about } } as Check;
    }
    outcome.known += 1;
    if (check.element.provenance.kind === 'documented')
      outcome.knownDocumented = (outcome.knownDocumented ?? 0) + 1;
    return { ...plain, baseline: { state: 'known', ...about } } as Check;
  });
  // An entry for every operation is fixed only when it fails on none of them.
  for (const entry of fixed) {
    if (failing.has(entry)) continue;
    outcome.fixed.push({
      check: entry.check,
      ...(entry.operation ? { operation: entry.operation } : {}),
      reason: entry.reason,
    });
  }
  return { checks: marked, outcome };
}

/**
 * The baseline `--update-baseline` writes: every failure of the run (keeping an existing entry's
 * reason and date; a new one gets PLACEHOLDER_REASON), less the entries whose check passed;
 * entries for checks this run did not evaluate are kept.
 *
 * @example
 * const next = updatedBaseline(report.checks, baseline, '2026-11-25');
 */
export function updatedBaseline(
  checks: readonly CheckResult[],
  previous: Baseline,
  today: string,
): BaselineFile {
  const evaluated = checks.filter((check) => check.outcome !== 'skipped');
  const known = previous.entries.filter((entry) => {
    const results = evaluated.filter((check) => matches(entry, check));
    // Kept while it still fails, or when this run did not evaluate its check; dropped once it passes.
    return results.length === 0 || results.some((check) => check.outcome === 'failed');
  });
  for (const check of evaluated) {
    if (check.outcome !== 'failed') continue;
    if (previous.entries.some((entry) => matches(entry, check))) continue;
    known.push({
      check: check.id,
      operation: check.operation,
      reason: `${PLACEHOLDER_REASON} (added by --update-baseline on ${today})`,
    });
  }
  known.sort(
    (a, b) =>
      (a.operation ?? '').localeCompare(b.operation ?? '') || a.check.localeCompare(b.check),
  );
  return { $schema: BASELINE_SCHEMA_PATH, version: 1, known };
}

/**
 * The notes a baseline adds to a run's verdict line.
 *
 * @example
 * baselineNotes(outcome); // ['2 known failures accepted by baseline.json, 0 documented', 'baseline entry createPayment.pending (createPayment) expired on 2026-01-31: it fails the run']
 */
export function baselineNotes(outcome: BaselineOutcome): string[] {
  const name = (item: { check: string; operation?: string }) =>
    `${item.check}${item.operation ? ` (${item.operation})` : ''}`;
  return [
    ...(outcome.known > 0
      ? [
          `${outcome.known} known failure${outcome.known === 1 ? '' : 's'} accepted by ${outcome.file}, ${outcome.knownDocumented ?? 0} documented`,
        ]
      : []),
    ...outcome.expired.map(
      (item) => `baseline entry ${name(item)} expired on ${item.expires}: it fails the run again`,
    ),
    ...(outcome.fixed.length > 0
      ? [
          `fixed, remove from ${outcome.file}: ${outcome.fixed
            .slice(0, 20)
            .map(name)
            .join(
              ', ',
            )}${outcome.fixed.length > 20 ? ` and ${outcome.fixed.length - 20} more` : ''}`,
        ]
      : []),
  ];
}

/**
 * Writes a baseline (`--update-baseline`) to its file, relative to `cwd`; returns the line that
 * says so, counting the entries still holding the placeholder reason.
 *
 * @example
 * io.stderr.write(await writeBaselineFile(io.cwd, 'contract-baseline.json', next));
 */
export async function writeBaselineFile(
  cwd: string,
  file: string,
  baseline: BaselineFile,
): Promise<string> {
  const path = resolve(cwd, file);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(baseline, null, 2)}\n`);
  const placeholders = baseline.known.filter((entry) =>
    entry.reason.startsWith(PLACEHOLDER_REASON),
  ).length;
  return `wrote the baseline to ${file}: ${baseline.known.length} known failure(s)${placeholders > 0 ? `, ${placeholders} with the placeholder reason "${PLACEHOLDER_REASON}": replace it with the real one` : ''}\n`;
}
