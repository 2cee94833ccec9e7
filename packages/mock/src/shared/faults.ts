// Injected faults of one sandbox key: latency, failing the next requests, dropping responses.
import type { SandboxComponents } from '@payment-service/openapi';
import type { ProblemCode, ProblemInit } from './problems.js';

/** The faults armed for a key: the sandbox spec's `Faults` schema. */
export type Faults = SandboxComponents['schemas']['Faults'];

/** The statuses `fail_next` can answer with. */
export type FailureStatus = NonNullable<Faults['fail_next']>['status'];

const FAILURE_CODES: Record<FailureStatus, ProblemCode> = {
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

const FAILURE_DETAILS: Record<FailureStatus, string> = {
  429: 'Too many requests (sandbox fault injection). Nothing was changed; retry after the Retry-After delay.',
  500: 'The service failed (sandbox fault injection). Nothing was changed; retry with the same Idempotency-Key.',
  502: 'Bad gateway (sandbox fault injection). Nothing was changed; retry with the same Idempotency-Key.',
  503: 'The service is unavailable (sandbox fault injection). Nothing was changed; retry with the same Idempotency-Key.',
  504: 'Gateway timeout (sandbox fault injection). Nothing was changed; retry with the same Idempotency-Key.',
};

/**
 * Requests of one key its `latency_ms` fault may hold at once; more are answered at once with
 * 429 `rate_limited` (see `heldRequestsFull`), so one key cannot hold the server's connections.
 */
export const MAX_HELD_REQUESTS_PER_KEY = 16;

/**
 * The answer to a request of a key whose latency fault already holds `MAX_HELD_REQUESTS_PER_KEY`
 * requests: 429 `rate_limited`, with `Retry-After` when the delay will have passed.
 *
 * @example
 * heldRequestsFull(2500).headers; // { 'retry-after': '3' }
 */
export function heldRequestsFull(latencyMs: number): ProblemInit {
  return {
    code: 'rate_limited',
    detail: `This key already has ${MAX_HELD_REQUESTS_PER_KEY} requests waiting on its latency_ms fault (${latencyMs} ms); retry after the delay, or lower the fault with PUT /_sandbox/faults.`,
    headers: { 'retry-after': String(Math.max(1, Math.ceil(latencyMs / 1000))) },
  };
}

/** Retry-After sent with an injected 429 when the fault names no delay. */
const DEFAULT_RATE_LIMIT_RETRY_AFTER = 1;

/**
 * Normalizes faults as set through the controls: counters at zero are dropped, so an
 * exhausted fault disappears from `GET /_sandbox/faults`.
 *
 * @example
 * normalizeFaults({ latency_ms: 0, fail_next: { count: 0, status: 503 } }); // {}
 */
export function normalizeFaults(faults: Faults): Faults {
  const normalized: Faults = {};
  if (faults.latency_ms) normalized.latency_ms = faults.latency_ms;
  if (faults.fail_next && faults.fail_next.count > 0)
    normalized.fail_next = { ...faults.fail_next };
  if (faults.drop_after_commit && faults.drop_after_commit.count > 0) {
    normalized.drop_after_commit = { ...faults.drop_after_commit };
  }
  return normalized;
}

/**
 * Consumes one armed `fail_next` and returns the problem to answer with, or undefined when none
 * is armed.
 *
 * @example
 * const faults = { fail_next: { count: 1, status: 429 as const } };
 * takeFailure(faults)?.code; // 'rate_limited'; faults.fail_next is now gone
 */
export function takeFailure(faults: Faults): ProblemInit | undefined {
  const failure = faults.fail_next;
  if (failure === undefined) return undefined;
  failure.count--;
  if (failure.count <= 0) delete faults.fail_next;
  const retryAfter =
    failure.retry_after ?? (failure.status === 429 ? DEFAULT_RATE_LIMIT_RETRY_AFTER : undefined);
  const problem: ProblemInit = {
    code: FAILURE_CODES[failure.status],
    detail: FAILURE_DETAILS[failure.status],
  };
  if (retryAfter !== undefined) problem.headers = { 'retry-after': String(retryAfter) };
  return problem;
}

/**
 * Consumes one armed `drop_after_commit`; true when this response must be dropped.
 *
 * @example
 * takeDrop({ drop_after_commit: { count: 2 } }); // true, count now 1
 */
export function takeDrop(faults: Faults): boolean {
  const drop = faults.drop_after_commit;
  if (drop === undefined) return false;
  drop.count--;
  if (drop.count <= 0) delete faults.drop_after_commit;
  return true;
}
