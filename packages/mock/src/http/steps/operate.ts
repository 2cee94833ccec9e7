// Step: the operation and its answer. Runs the handler bound to the checked body, hands its events on, completes the Idempotency-Key record and answers.
import type { EventDelivery } from '../../service/account-service.js';
import type { StoredResponse } from '../../store/records.js';
import { answerWith } from '../exchange.js';
import type { PreparedAnswer } from '../operations.js';
import { toStoredJson, toStoredProblem } from '../respond.js';
import { afterHandler, type RequestState, type Step } from './state.js';

/**
 * The last step: runs the operation's handler (bound to the checked body by `validateRequest`)
 * with the path's `{id}` when `hasId`, hands the events it caused to the webhook dispatcher,
 * and answers (`answerOperation`).
 *
 * @example
 * const run = composeSteps(steps, operate(shape.hasId, runtime.deliver));
 */
export function operate(
  hasId: boolean,
  deliver: (events: readonly EventDelivery[]) => Promise<void>,
): Step {
  // No async frame of its own: a handler that answers at once is answered at once (a throw is
  // the steps before it's to answer: `closeSession`).
  return (c, request) => {
    const service = request.service;
    const prepared = request.prepared;
    if (service === undefined || prepared?.ok !== true) {
      throw new Error('unreachable: an operation runs on an open account with a checked body');
    }
    const id = hasId ? (c.req.param('id') ?? '') : '';
    return afterHandler(prepared.value(service, request.claim, id, c), (answer) =>
      deliverThenAnswer(request, answer, deliver),
    );
  };
}

/** Hands the events the operation caused to the dispatcher (queued before the answer), then answers. */
function deliverThenAnswer(
  request: RequestState,
  answer: PreparedAnswer,
  deliver: (events: readonly EventDelivery[]) => Promise<void>,
): Response | Promise<Response> {
  const { events } = answer;
  if (events === undefined) return answerOperation(request, answer);
  return deliver(events).then(() => answerOperation(request, answer));
}

/**
 * Answers with what the operation answered, completing the request's Idempotency-Key record
 * (if it holds one): a record the operation completed with its change (in the same store call:
 * both or neither) holds the answer already; an answer that changed nothing is stored here,
 * except a 400, after which the key is free again.
 *
 * @example
 * return answerOperation(request, { status: 200, body: payment });
 */
export function answerOperation(
  request: RequestState,
  answer: PreparedAnswer,
): Response | Promise<Response> {
  const claim = request.claim;
  const stored: StoredResponse =
    claim?.record.response ??
    ('problem' in answer
      ? toStoredProblem(answer.problem, request.requestId)
      : storedSuccess(answer));
  if (claim === undefined || request.service === undefined) return answerWith(request, stored);
  request.claimFinished = true;
  return request.service.idempotency
    .finish(claim, stored.status !== 400 ? stored : undefined)
    .then(() => answerWith(request, stored));
}

/** A success answer as stored: its `text` as it is (its body, which may parse it, left unread), else its body serialized. */
function storedSuccess(answer: { status: number; body: unknown; text?: string }): StoredResponse {
  const { text } = answer;
  return text === undefined
    ? toStoredJson(answer.status, answer.body)
    : toStoredJson(answer.status, undefined, text);
}
