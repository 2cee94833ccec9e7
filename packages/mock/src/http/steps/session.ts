// Step: the account session. Where a request reaches its key's account: opened after auth, read ahead on a networked store, closed (and persisted) at the end.
import type { AccountService } from '../../service/account-service.js';
import type { ProblemInit } from '../../shared/problems.js';
import { answerProblem, internalError } from '../exchange.js';
import { idempotentRequest } from './idempotency.js';
import { afterSteps, type RequestState, type StepFactory } from './state.js';

/**
 * The last step to see the answer (first after observation): a 500 problem for whatever the
 * steps after it throw, then the end of the request's session: an Idempotency-Key claimed ahead
 * and never taken is given back, and nothing is answered before what the request changed is
 * stored (`persist`: a durable store's problem replaces the answer).
 *
 * @example
 * composeSteps([closeSession(runtime.persist), authenticateKey(false)], operate);
 */
export function closeSession(persist: () => ProblemInit | undefined): StepFactory {
  const answered = (_c: unknown, request: RequestState, response: Response) =>
    close(request, persist, response);
  const failed = (_c: unknown, request: RequestState, error: unknown) =>
    close(request, persist, internalError(request, error));
  // No async frame of its own: an answer made at once is closed at once.
  return (next) => (c, request) => afterSteps(next, c, request, answered, failed);
}

/** Ends the request's session once its steps answered `response`: the unused claim given back, then `persist`. */
function close(
  request: RequestState,
  persist: () => ProblemInit | undefined,
  response: Response,
): Response | Promise<Response> {
  const unused = request.service?.giveBackUnusedClaim();
  if (unused !== undefined) return unused.then(() => persisted(request, persist, response));
  return persisted(request, persist, response);
}

/** The answer once what the request changed is stored: a durable store's problem replaces it. */
function persisted(
  request: RequestState,
  persist: () => ProblemInit | undefined,
  response: Response,
): Response {
  const unstored = persist();
  return unstored === undefined ? response : answerProblem(request, unstored);
}

/**
 * Opens the account service of the authenticated key (a /v1 request then opens its store session:
 * `readAhead`).
 *
 * @example
 * composeSteps([authenticateKey(false), openAccount(runtime.serviceFor)], operate);
 */
export function openAccount(serviceFor: (apiKey: string) => AccountService): StepFactory {
  return (next) => (c, request) => {
    request.service = serviceFor(request.apiKey);
    return next(c, request);
  };
}

/**
 * Opens the request's store session before the faults, asking in one go (one round trip on a
 * networked store, at once in memory) what the request's steps will ask of the store: a valid
 * POST opens the account, claims its Idempotency-Key (only if no fault is armed) and asks for
 * room; a payment's path reads the payment; any other request finds the account. A POST's body
 * was read and checked before this step; its problems are answered after the faults
 * (`refuseInvalid`).
 *
 * @example
 * composeSteps([readBody(65_536), validateRequest(shape), readAhead(shape)], rest);
 */
export function readAhead(shape: { post: boolean; paymentId: boolean }): StepFactory {
  // The store runs the steps after it on the session it read: at once in memory.
  return (next) => (c, request) => {
    const service = request.account();
    const paymentId = shape.paymentId ? (c.req.param('id') ?? '') : undefined;
    const rest = () => next(c, request);
    return shape.post && request.prepared?.ok === true && request.keyError === undefined
      ? service.withSession(true, idempotentRequest(request), paymentId, rest)
      : service.withSession(false, undefined, paymentId, rest);
  };
}
