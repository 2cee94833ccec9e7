// Step: the answer to a request that cannot be served as sent: its body's problem, else every validation problem at once.
import { answerProblem } from '../exchange.js';
import { invalidRequest } from '../respond.js';
import type { StepFactory } from './state.js';

/**
 * Answers what `readBody` and `validateRequest` found: an unreadable body's problem (415, 413,
 * 400 `invalid_json`, or a connection closed mid-body), else a 400 `invalid_request` listing
 * every field problem, the `Idempotency-Key` header's first. The body's text becomes what the
 * inspector records of the request here, so a request answered before (by a fault) records none.
 *
 * @example
 * composeSteps([readBody(65_536), validateRequest(route.prepare, true), refuseInvalid], operate);
 */
export const refuseInvalid: StepFactory = (next) => (c, request) => {
  const read = request.read;
  if (read !== undefined) {
    request.bodyText = read.text;
    if (!read.ok) {
      if (read.aborted === true) request.aborted = true;
      return answerProblem(request, read.problem);
    }
  }
  const prepared = request.prepared;
  if (prepared === undefined) throw new Error('unreachable: a body read is checked');
  const keyError = request.keyError;
  if (prepared.ok && keyError === undefined) return next(c, request);
  const errors = prepared.ok ? [] : [...prepared.errors];
  if (keyError !== undefined) errors.unshift(keyError);
  return answerProblem(request, invalidRequest(errors));
};
