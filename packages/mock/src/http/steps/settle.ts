// Step: due settlements (/v1). Every /v1 request settles what fell due on the key's clock before its operation runs.
import type { Context } from 'hono';
import type { AccountService, EventDelivery } from '../../service/account-service.js';
import type { MockEnv } from '../env.js';
import type { RequestState, Step, StepFactory } from './state.js';

/**
 * Settles the key's payments that fell due, handing their events to the webhook dispatcher, then
 * goes on (the store is asked only when one may be due, as the request's session read it).
 *
 * @example
 * composeSteps([spendLatency(sleep), settleDue(runtime.deliver)], operate);
 */
export function settleDue(
  deliver: (events: readonly EventDelivery[]) => Promise<void>,
): StepFactory {
  return (next) => (c, request) => {
    const service = request.account();
    // Nothing due as the request's session read the account: no store call, no wait.
    if (!service.payments.mayHaveDue()) return next(c, request);
    return settleThenGoOn(deliver, service, next, c, request);
  };
}

async function settleThenGoOn(
  deliver: (events: readonly EventDelivery[]) => Promise<void>,
  service: AccountService,
  next: Step,
  c: Context<MockEnv>,
  request: RequestState,
): Promise<Response> {
  const { events } = await service.payments.settleDue();
  if (events.length > 0) await deliver(events);
  return next(c, request);
}
