// Step: authentication. The `Authorization` header's sandbox key, or the 401 problem.
import { authenticate } from '../auth.js';
import { answerProblem } from '../exchange.js';
import type { StepFactory } from './state.js';

/** The account a keyless request is served as: not a well-formed key, so no client's. */
export const KEYLESS_CALLER = 'sk_test_ keyless';

/**
 * Authenticates the request's key (`Authorization: Bearer sk_test_…`) or answers 401. An
 * operation that answers without a key (`keyless`: the spec lists no security among its options)
 * serves a request without the header as `KEYLESS_CALLER`, whose data no client can reach; a
 * header sent is still checked.
 *
 * @example
 * composeSteps([authenticateKey(false), checkPathId('payment')], operate);
 */
export function authenticateKey(keyless: boolean): StepFactory {
  return (next) => (c, request) => {
    const header = c.req.header('authorization');
    if (keyless && header === undefined) {
      request.apiKey = KEYLESS_CALLER;
      return next(c, request);
    }
    const auth = authenticate(header);
    if (!auth.ok) return answerProblem(request, auth.problem);
    request.apiKey = auth.apiKey;
    return next(c, request);
  };
}
