// The event a payment's new status causes: built before a change is committed, recorded after it.
import type { components } from '@payment-service/openapi';
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
 * for redelivery.
 *
 * @example
 * if (event !== undefined) await commitEvent(account, event, events); // after the commit
 */
export async function commitEvent(
  account: AccountStore,
  delivery: EventDelivery,
  events: EventDelivery[],
): Promise<void> {
  try {
    await account.webhookState().rememberEvent(delivery.event);
  } catch {
    // Kept or not, the change happened: its event goes out.
  }
  events.push(delivery);
}
