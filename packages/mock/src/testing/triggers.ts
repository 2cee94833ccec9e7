// `sandbox.trigger(type)`: what the API is asked to do so that an event of that type happens, as `stripe trigger` does.
import { openapiDocument } from '@payment-service/openapi';
import type { PaymentServiceClient, WebhookEventType } from '@payment-service/sdk';
import type { Payment, TriggerParams } from './types.js';

type Recipe = (client: PaymentServiceClient, params: Required<TriggerParams>) => Promise<Payment>;

const create = (
  client: PaymentServiceClient,
  params: Required<TriggerParams>,
  token: string,
  capture = true,
) => client.payments.create({ ...params, capture, payment_method: { type: 'token', token } });

/** One recipe per event type of the spec: a new event type is a compile error here. */
const RECIPES: Readonly<Record<WebhookEventType, Recipe>> = {
  'payment.pending': (client, params) => create(client, params, 'tok_test_pending'),
  'payment.authorized': (client, params) => create(client, params, 'tok_test_success', false),
  'payment.succeeded': (client, params) => create(client, params, 'tok_test_success'),
  'payment.failed': (client, params) => create(client, params, 'tok_test_declined'),
  'payment.canceled': async (client, params) => {
    const authorized = await create(client, params, 'tok_test_success', false);
    return client.payments.cancel(authorized.id);
  },
  'payment.refunded': async (client, params) => {
    const succeeded = await create(client, params, 'tok_test_success');
    await client.refunds.create(succeeded.id);
    return client.payments.retrieve(succeeded.id);
  },
};

/** The event types of the spec (`EventType`), in its order. */
export const TRIGGERABLE_EVENTS: readonly string[] =
  openapiDocument.components.schemas.EventType.enum;

/**
 * Makes the requests that lead to an event of `type` through the sandbox's client and returns
 * the payment as they left it. An unknown type is a TypeError that lists the known ones.
 *
 * @example
 * const payment = await runTrigger(sandbox.client, 'payment.refunded', {}); // status 'REFUNDED'
 */
export function runTrigger(
  client: PaymentServiceClient,
  type: string,
  params: TriggerParams = {},
): Promise<Payment> {
  if (!Object.hasOwn(RECIPES, type)) {
    throw new TypeError(
      `sandbox.trigger(${JSON.stringify(type)}): not an event type; use one of ${TRIGGERABLE_EVENTS.join(', ')}`,
    );
  }
  const recipe = RECIPES[type as WebhookEventType];
  return recipe(client, {
    amount: params.amount ?? 1000,
    currency: params.currency ?? 'KZT',
    description: params.description ?? `sandbox.trigger('${type}')`,
  });
}
