// Step: the path's `{id}`. An id no store could hold is answered 404 here, the same whatever the store, and never sent to one.
import { isIdForm, MAX_ID_LENGTH } from '../../shared/id-form.js';
import { answerProblem } from '../exchange.js';
import type { StepFactory } from './state.js';

/**
 * Answers `404 not_found` for a path `{id}` of no possible form (empty, too long, a control
 * character): `names` says what the id names ('payment', 'webhook endpoint', 'event').
 *
 * @example
 * composeSteps([authenticateKey(false), checkPathId('payment')], operate);
 */
export function checkPathId(names: string): StepFactory {
  const detail = `No ${names} has this id: an id is 1 to ${MAX_ID_LENGTH} characters, none of them a control character.`;
  return (next) => (c, request) => {
    if (isIdForm(c.req.param('id') ?? '')) return next(c, request);
    return answerProblem(request, { code: 'not_found', detail });
  };
}
