// The event a payment's new status causes: built before a change is committed, recorded after it.
import type { components } from '@payment-service/openapi';
import { MAX_EVENTS_PER_KEY } from '../store/limits.js';
import type { AccountStore } from '../store/store.js';
import { paymentEvent } from '../webhooks/events.js';
import { hasSubscribers } from '../webhooks/receivers.js';
import type { EventDelivery, SandboxState } from './sandbox-state.js';

type Payment = components['schemas']['Payment'];

/**
 * The event of a payment's new status, built but not recorded (undefined with no listener).
 *
 * @example
 * const event = prepareEvent(sandbox, account, payment, accountNow); // before the commit
 */
export function prepareEvent(
  sandbox: SandboxState,
  account: AccountStore,
  payment: Payment,
  at: number,
): EventDelivery | undefined {
  if (!hasSubscribers(account.webhooks, sandbox.defaultEndpoint)) return undefined;
  return { account, event: paymentEvent(payment, at, sandbox.random), dueAt: at };
}

/**
 * Records a prepared event for redelivery and lists it for delivery; cannot fail (it runs after
 * a change was committed): an event the store could not keep is still delivered, only not kept
 * for redelivery. An event whose id the key already keeps (a seeded sandbox draws again the ids
 * its store holds) is made again on a new id, `payment` as it was at the change; after
 * `MAX_EVENTS_PER_KEY` refusals (more than the key keeps: the store is not telling the truth) it
 * is delivered without being kept.
 *
 * @example
 * if (event !== undefined) await commitEvent(sandbox, payment, event, events); // after the commit
 */
export async function commitEvent(
  sandbox: SandboxState,
  payment: Payment,
  delivery: EventDelivery,
  events: EventDelivery[],
): Promise<void> {
  try {
    const state = delivery.account.webhookState();
    for (let draws = 1; draws <= MAX_EVENTS_PER_KEY; draws++) {
      if (await state.rememberEvent(delivery.event)) break;
      delivery.event = paymentEvent(payment, delivery.dueAt, sandbox.random);
    }
  } catch {
    // Kept or not, the change happened: its event goes out.
  }
  events.push(delivery);
}
