// Step: the key's faults (/v1). `fail_next` answers at once; `latency_ms` holds the request, spent before its operation runs.
import type { Context } from 'hono';
import type { AccountService } from '../../service/account-service.js';
import { heldRequestsFull } from '../../shared/faults.js';
import type { MockEnv } from '../env.js';
import { answerProblem, internalError } from '../exchange.js';
import type { RequestState, Step, StepFactory } from './state.js';

/**
 * Applies the key's faults, as the request's store session read them with the account (no store
 * call unless one is armed). Without latency, an armed `fail_next` answers
 * at once. With latency, the request takes one of the key's held slots (`503` when none is
 * free) and the steps after it spend the latency (`spendLatency`) before the operation; what an
 * answer made before that did not spend (a 400) is waited here. A failure under latency is
 * answered after the whole latency.
 *
 * @example
 * composeSteps([applyFaults(runtime.sleep), readBody(65_536)], operate);
 */
export function applyFaults(sleep: (ms: number) => Promise<void>): StepFactory {
  return (next) => (c, request) => {
    const service = request.account();
    const latencyMs = service.faults.latencyMs();
    if (latencyMs !== 0) return held(next, sleep, c, request, service, latencyMs);
    if (!service.faults.failureArmed()) return next(c, request);
    return failOrGoOn(next, c, request, service);
  };
}

/** Without latency: an armed `fail_next` answers, else the request goes on. */
async function failOrGoOn(
  next: Step,
  c: Context<MockEnv>,
  request: RequestState,
  service: AccountService,
): Promise<Response> {
  const failure = await service.faults.takeFailure();
  return failure === undefined ? next(c, request) : answerProblem(request, failure);
}

/** A request of a key with `latency_ms` armed: held in one of the key's slots while it runs. */
async function held(
  next: Step,
  sleep: (ms: number) => Promise<void>,
  c: Context<MockEnv>,
  request: RequestState,
  service: AccountService,
  latencyMs: number,
): Promise<Response> {
  const release = service.faults.holdRequest();
  if (release === undefined) return answerProblem(request, heldRequestsFull(latencyMs));
  try {
    const failure = await service.faults.takeFailure();
    if (failure !== undefined) {
      await sleep(latencyMs);
      return answerProblem(request, failure);
    }
    request.latencyMs = latencyMs;
    let response: Response;
    try {
      response = await next(c, request);
    } catch (error) {
      response = internalError(request, error);
    }
    // What the operation did not spend (an answer made before it, such as a 400).
    if (request.latencyMs > 0) await sleep(request.latencyMs);
    return response;
  } finally {
    release();
  }
}

/**
 * Spends the latency `applyFaults` left to spend, just before the operation runs (after the
 * Idempotency-Key step): what was read ahead with the account is stale afterwards.
 *
 * @example
 * composeSteps([takeIdempotencyKey(), spendLatency(runtime.sleep)], operate);
 */
export function spendLatency(sleep: (ms: number) => Promise<void>): StepFactory {
  return (next) => (c, request) => {
    if (request.latencyMs <= 0) return next(c, request);
    return spent(next, sleep, c, request);
  };
}

async function spent(
  next: Step,
  sleep: (ms: number) => Promise<void>,
  c: Context<MockEnv>,
  request: RequestState,
): Promise<Response> {
  const ms = request.latencyMs;
  request.latencyMs = 0;
  await sleep(ms);
  request.service?.waited();
  return next(c, request);
}
