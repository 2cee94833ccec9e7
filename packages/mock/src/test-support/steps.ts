// Test support for the request steps (http/steps/): runs one step on a real Hono context, with a recording step after it.
import { Hono } from 'hono';
import type { MockEnv } from '../http/env.js';
import { RequestState, type Step, type StepFactory } from '../http/steps/state.js';
import type { AccountService } from '../service/account-service.js';

/** A request to run one step on. */
export interface StepRequest {
  method?: string;
  /** The route pattern (`/v1/payments/:id`); `path` by default. */
  route?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sets fields of the request state before the step runs (what earlier steps left). */
  before?(request: RequestState): void;
}

/** What running a step gave: its answer, the request state after it, whether it went on. */
export interface StepRun {
  response: Response;
  request: RequestState;
  /** How many times the step after it ran (0: the step answered itself). */
  nextCalls: number;
}

/** The status the recording next step answers with. */
export const NEXT_STATUS = 299;

/**
 * Runs `factory` on one request, the step after it recording that it ran (it answers
 * `NEXT_STATUS`, or what `after` answers).
 *
 * @example
 * const { response, nextCalls } = await runStep(authenticateKey(false), { headers: {} });
 */
export async function runStep(
  factory: StepFactory,
  request: StepRequest = {},
  after?: Step,
): Promise<StepRun> {
  let nextCalls = 0;
  const next: Step = async (c, state) => {
    nextCalls++;
    return after === undefined ? new Response('next', { status: NEXT_STATUS }) : after(c, state);
  };
  const step = factory(next);
  const path = request.path ?? '/v1/payments';
  const method = request.method ?? 'GET';
  const app = new Hono<MockEnv>();
  // A step that throws is a 500 here (the pipeline's first steps catch it), without Hono's log.
  app.onError(() => new Response('thrown', { status: 500 }));
  const seen: { state?: RequestState } = {};
  app.on([method], [request.route ?? path], (c) => {
    const state = new RequestState(c, { now: () => Date.UTC(2025, 0, 15) });
    seen.state = state;
    request.before?.(state);
    return step(c, state);
  });
  const response = await app.request(
    path,
    {
      method,
      headers: request.headers ?? {},
      ...(request.body === undefined ? {} : { body: request.body }),
    },
    { inProcess: true },
  );
  if (seen.state === undefined) {
    throw new Error(`the route ${request.route ?? path} did not match`);
  }
  return { response, request: seen.state, nextCalls };
}

/**
 * A request whose account is open already (what `openAccount` leaves): `service`.
 *
 * @example
 * await runStep(applyFaults(sleep), onService(service));
 */
export function onService(service: AccountService, request: StepRequest = {}): StepRequest {
  return {
    ...request,
    before: (state) => {
      state.service = service;
      request.before?.(state);
    },
  };
}

/**
 * The problem+json body of a step's answer.
 *
 * @example
 * expect((await problemOf(run.response)).code).toBe('missing_api_key');
 */
export async function problemOf(response: Response): Promise<{ code: string; detail: string }> {
  return (await response.json()) as { code: string; detail: string };
}
