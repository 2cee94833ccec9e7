// Step: the operation and its answer. Runs the handler bound to the checked body, hands its events on, completes the Idempotency-Key record and answers.
import type { Context } from 'hono';
import type { AccountService, EventDelivery } from '../../service/account-service.js';
import type { IdempotencyClaim } from '../../service/idempotency.js';
import type { StoredResponse } from '../../store/records.js';
import { callerOnThisMachine } from '../caller.js';
import type { MockEnv } from '../env.js';
import { answerWith } from '../exchange.js';
import type { HandlerInput, PreparedAnswer } from '../operations.js';
import { toStoredJson, toStoredProblem } from '../respond.js';
import type { RequestState, Step } from './state.js';

/** What a prepared handler is given; `query` and `callerOnThisMachine` are worked out only when read. */
class OperationInput implements Omit<HandlerInput<unknown>, 'body'> {
  constructor(
    readonly service: AccountService,
    readonly idempotency: IdempotencyClaim | undefined,
    readonly id: string,
    private readonly c: Context<MockEnv>,
  ) {}

  get query(): URLSearchParams {
    const url = this.c.req.url;
    const queryStart = url.indexOf('?');
    return new URLSearchParams(queryStart === -1 ? '' : url.slice(queryStart + 1));
  }

  get callerOnThisMachine(): boolean {
    return callerOnThisMachine(this.c.env);
  }
}

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
  return async (c, request) => {
    const service = request.service;
    const prepared = request.prepared;
    if (service === undefined || prepared?.ok !== true) {
      throw new Error('unreachable: an operation runs on an open account with a checked body');
    }
    const input = new OperationInput(
      service,
      request.claim,
      hasId ? (c.req.param('id') ?? '') : '',
      c,
    );
    const answering = prepared.value(input);
    const answer = answering instanceof Promise ? await answering : answering;
    if (answer.events !== undefined) await deliver(answer.events);
    return answerOperation(request, answer);
  };
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
      : toStoredJson(answer.status, answer.body, answer.text));
  if (claim === undefined || request.service === undefined) return answerWith(request, stored);
  request.claimFinished = true;
  return request.service.idempotency
    .finish(claim, stored.status !== 400 ? stored : undefined)
    .then(() => answerWith(request, stored));
}
