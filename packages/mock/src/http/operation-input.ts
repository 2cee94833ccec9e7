// What a handler is given, built once per request: its query and its caller worked out only when read.
import type { Context } from 'hono';
import type { AccountService } from '../service/account-service.js';
import type { IdempotencyClaim } from '../service/idempotency.js';
import { callerOnThisMachine } from './caller.js';
import type { MockEnv } from './env.js';
import type { HandlerInput, PreparedAnswer, PreparedHandler } from './operations.js';

/**
 * A handler's input: one object per request, whose `query` is parsed and `callerOnThisMachine`
 * worked out only when a handler reads them (the list operations, a delivery's answer).
 *
 * @example
 * handle(new OperationInput(service, undefined, 'pay_1', undefined, c));
 */
export class OperationInput<Body> implements HandlerInput<Body> {
  constructor(
    readonly service: AccountService,
    readonly idempotency: IdempotencyClaim | undefined,
    readonly id: string,
    readonly body: Body,
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
 * Binds a checked body to an operation's handler: what the validation step leaves for the
 * operation step.
 *
 * @example
 * const prepared = bindHandler(route.handle, checked.value);
 * await prepared(service, undefined, 'pay_1', c);
 */
export function bindHandler<Body>(
  handle: (input: HandlerInput<Body>) => PreparedAnswer | Promise<PreparedAnswer>,
  body: Body,
): PreparedHandler {
  return (service, idempotency, id, c) =>
    handle(new OperationInput(service, idempotency, id, body, c));
}
