// Step: due settlements (/v1). Every /v1 request settles what fell due on the key's clock before its operation runs.
import type { EventDelivery } from '../../service/account-service.js';
import type { StepFactory } from './state.js';

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
  return (next) => async (c, request) => {
    const service = request.account();
    const { events } = await service.payments.settleDue();
    if (events.length > 0) await deliver(events);
    return next(c, request);
  };
}
