// A fetch wrapper that checks every response against the spec and records which (operation, status) pairs were exercised.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  Exchange,
  ExchangeResult,
  ResponseValidator,
} from '@payment-service/contract/toolkit';

/** One line of the exercise log shared by all test files of a run. */
export interface ExerciseRecord {
  target: string;
  operation: string;
  statusKey: string | undefined;
  status: number;
  method: string;
  path: string;
  violations: ExchangeResult['violations'];
}

/** Everything a recording fetch has seen, for assertions in the test that made the requests. */
export interface Recording {
  fetch: typeof fetch;
  /** Results of every exchange so far, oldest first. */
  results: Array<ExchangeResult & { exchange: Exchange }>;
  /** Violations since the last call, then forgets them. */
  takeViolations(): Array<ExchangeResult['violations'][number] & { exchange: Exchange }>;
}

/**
 * The exercise-log line of one checked exchange.
 *
 * @example
 * appendFileSync(logFile, `${JSON.stringify(exerciseRecord('http', exchange, result))}\n`);
 */
export function exerciseRecord(
  target: string,
  exchange: Exchange,
  result: ExchangeResult,
): ExerciseRecord {
  return {
    target,
    operation: result.spec ? `${result.spec}:${result.operation}` : result.operation,
    statusKey: result.statusKey,
    status: exchange.status,
    method: exchange.method,
    path: exchange.path,
    violations: result.violations,
  };
}

/**
 * Appends one checked exchange to the run's exercise log in `recordDir` (one file per process).
 *
 * @example
 * runContractCheck({ …, onExchange: (exchange, result) => appendExercise(recordDir, 'http', exchange, result) });
 */
export function appendExercise(
  recordDir: string,
  target: string,
  exchange: Exchange,
  result: ExchangeResult,
): void {
  appendFileSync(
    join(recordDir, `exercised-${process.pid}.jsonl`),
    `${JSON.stringify(exerciseRecord(target, exchange, result))}\n`,
  );
}

/**
 * Wraps a fetch so every response is checked against the spec and logged to `recordDir` (when given).
 * The response handed back to the caller is untouched.
 *
 * @example
 * const recording = createRecordingFetch(mock.fetch, validator, { target: 'in-process' });
 * const client = createClient({ apiKey, baseUrl, fetch: recording.fetch });
 */
export function createRecordingFetch(
  inner: (request: Request) => Promise<Response>,
  validator: ResponseValidator,
  options: { target: string; recordDir?: string | undefined },
): Recording {
  const results: Recording['results'] = [];
  let unread: ReturnType<Recording['takeViolations']> = [];
  const logFile = options.recordDir
    ? join(
        options.recordDir,
        `exercised-${process.pid}-${Math.random().toString(36).slice(2)}.jsonl`,
      )
    : undefined;

  const recordingFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const response = await inner(request);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const body = await response.clone().text();
    const exchange: Exchange = {
      method: request.method,
      path: url.pathname,
      status: response.status,
      headers,
      body,
    };
    const result = validator.check(exchange);
    results.push({ ...result, exchange });
    for (const violation of result.violations) unread.push({ exchange, ...violation });
    if (logFile)
      appendFileSync(
        logFile,
        `${JSON.stringify(exerciseRecord(options.target, exchange, result))}\n`,
      );
    return response;
  };

  return {
    fetch: recordingFetch as typeof fetch,
    results,
    takeViolations() {
      const taken = unread;
      unread = [];
      return taken;
    },
  };
}
