// Replay: re-checks recorded traffic (HAR) against the current spec, or another spec file, offline; the same report and exit policy as the proxy's.
import { basename } from 'node:path';
import { createTrafficChecker } from '../proxy/traffic-checker.js';
import { validateTrafficSelection } from '../proxy/traffic-gate.js';
import { type TrafficGate, type TrafficReport, trafficReport } from '../proxy/traffic-report.js';
import type { FailOn } from '../report.js';
import { type SpecDocument, specDocuments } from '../spec/spec-index.js';
import { cleanTargetText } from '../untrusted-text.js';
import { harExchanges } from './har-reader.js';
import { loadSpecFile } from './spec-file.js';

/** Options of `replayRecording`. */
export interface ReplayOptions {
  /** The HAR file. */
  file: string;
  /** Check against this spec file (YAML or JSON) instead of the kit's own spec. */
  specFile?: string;
  /** The directory reports name the spec file from (default: the process's). */
  cwd?: string;
  failOn?: FailOn;
  /** Only the selected checks are reported; the baseline's known failures do not count. */
  gate?: TrafficGate;
  /** The wall clock (tests inject one). */
  now?: () => number;
}

const MAX_ERRORS = 20;

/**
 * Re-checks a recording against the spec; throws a ConfigurationError (exit 2) for a recording or
 * spec file it cannot use.
 *
 * @example
 * const report = await replayRecording({ file: 'traffic.har', specFile: 'spec/openapi.next.yaml' });
 * process.exitCode = report.exitCode;
 */
export async function replayRecording(options: ReplayOptions): Promise<TrafficReport> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const spec = options.specFile ? await loadSpecFile(options.specFile, options.cwd) : undefined;
  const documents = spec ? { openapi: spec.document, sandbox: specDocuments.sandbox } : undefined;
  // Checked against the spec replayed against: its operations and checks.
  if (options.gate?.selection) validateTrafficSelection(options.gate.selection, documents);
  const checker = createTrafficChecker(spec && documents ? { documents, locate: spec.locate } : {});
  const errors: TrafficReport['errors'] = [];
  let index = -1;
  // Entry by entry, as the recording is read: one entry in memory at a time.
  for await (const exchange of harExchanges(options.file)) {
    index += 1;
    try {
      checker.check(exchange);
    } catch (error) {
      // A spec whose schemas do not compile, or a bug here: no verdict for this entry.
      if (errors.length < MAX_ERRORS)
        errors.push({
          scenario: `log.entries[${index}]`,
          message: cleanTargetText(String((error as Error)?.message ?? error), 2000),
        });
    }
  }
  return trafficReport({
    mode: 'replay',
    target: `recording ${cleanTargetText(basename(options.file), 200)}${spec ? ` against ${cleanTargetText(spec.file, 200)}` : ''}`,
    failOn: options.failOn ?? 'documented',
    checks: checker.results(),
    notes: checker.notes,
    spec: spec?.document ?? (specDocuments.openapi as SpecDocument),
    startedAt,
    now: now(),
    errors,
    ...(options.gate ? { gate: options.gate } : {}),
  });
}
