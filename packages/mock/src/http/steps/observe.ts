// Step: observation. Opens the request's state and observes it once at the end (log line, inspector record, dropped connection).
import type { Context } from 'hono';
import type { MockEnv } from '../env.js';
import { internalError, type Observer, observe } from '../exchange.js';
import { type Answering, afterSteps, RequestState, type Step } from './state.js';

/**
 * The entry of an operation's pipeline, around its first step: a fresh `RequestState` (its
 * `Request-Id`, method, path, arrival time), a 500 problem for whatever the steps throw, then one
 * observation of the answer from what the state holds.
 *
 * @example
 * app.get('/v1/payments/:id', observeRequest(observer, composeSteps(steps, operate)));
 */
export function observeRequest(observer: Observer, next: Step): (c: Context<MockEnv>) => Answering {
  const { clock } = observer;
  const answered = (c: Context<MockEnv>, request: RequestState, response: Response) =>
    observed(c, request, observer, response);
  const failed = (c: Context<MockEnv>, request: RequestState, error: unknown) =>
    observed(c, request, observer, internalError(request, error));
  // No async frame of its own: an answer made at once is observed and sent at once.
  return (c) => afterSteps(next, c, new RequestState(c, clock), answered, failed);
}

/** Observes the request once, as answered with `response`, and answers it. */
function observed(
  c: Context<MockEnv>,
  request: RequestState,
  observer: Observer,
  response: Response,
): Response {
  observe(c, request, observer, response.status);
  return response;
}
