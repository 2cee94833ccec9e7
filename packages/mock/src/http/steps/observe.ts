// Step: observation. Opens the request's state and observes it once at the end (log line, inspector record, dropped connection).
import type { Context } from 'hono';
import type { MockEnv } from '../env.js';
import { internalError, type Observer, observe } from '../exchange.js';
import { RequestState, type Step } from './state.js';

/**
 * The entry of an operation's pipeline, around its first step: a fresh `RequestState` (its
 * `Request-Id`, method, path, arrival time), a 500 problem for whatever the steps throw, then one
 * observation of the answer from what the state holds.
 *
 * @example
 * app.get('/v1/payments/:id', observeRequest(observer, composeSteps(steps, operate)));
 */
export function observeRequest(
  observer: Observer,
  next: Step,
): (c: Context<MockEnv>) => Promise<Response> {
  const { clock } = observer;
  return async (c) => {
    const request = new RequestState(c, clock);
    let response: Response;
    try {
      response = await next(c, request);
    } catch (error) {
      response = internalError(request, error);
    }
    observe(c, request, observer, response.status);
    return response;
  };
}
