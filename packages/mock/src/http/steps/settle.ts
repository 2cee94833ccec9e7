// Step: due settlements (/v1). Every /v1 request settles what fell due on the key's clock before its operation runs.
import type { EventDelivery } from '../../service/account-service.js';
import type { StepFactory } from './state.js';

/**
 * Settles the key's payments that fell due, handing their events to the webhook dispatcher, then
 * goes on: at once when nothing is due and the store answers at once (the memory store).
 *
 * @example
 * composeSteps([spendLatency(sleep), settleDue(runtime.deliver)], operate);
 */
export function settleDue(
  deliver: (events: readonly EventDelivery[]) => Promise<void>,
): StepFactory {
  return (next) => (c, request) => {
    const service = request.service;
    if (service === undefined) throw new Error('unreachable: the account is open');
    const settling = service.payments.settleDue();
    if (settling instanceof Promise) {
      return settling.then(async ({ events }) => {
        if (events.length > 0) await deliver(events);
        return next(c, request);
      });
    }
    if (settling.events.length === 0) return next(c, request);
    return deliver(settling.events).then(() => next(c, request));
  };
}
