// Helpers the scenarios share: a payment request with a test token, and creating one as a step later steps need.
import type { ScenarioContext } from '../runner/scenario.js';
import { statusOf } from '../runner/scenario.js';
import type { Answer } from '../runner/transport.js';

/**
 * A create-payment request body with a test token; the description carries the run's marker.
 *
 * @example
 * paymentBody(context, 'tok_test_pending', { capture: false }); // { amount: 10000, currency: 'KZT', capture: false, … }
 */
export function paymentBody(
  context: ScenarioContext,
  token = 'tok_test_success',
  changes: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    amount: 10_000,
    currency: 'KZT',
    capture: true,
    description: `payment-service-contract ${context.runId}`,
    payment_method: { type: 'token', token },
    ...changes,
  };
}

/**
 * Creates a payment that later steps need: the check `checkId` fails (and the scenario stops)
 * unless a 2xx with a payment id comes back.
 *
 * @example
 * const { id } = await createPaymentStep(context, createsPayment.id, paymentBody(context));
 */
export async function createPaymentStep<Id extends string>(
  context: ScenarioContext<Id>,
  checkId: Id,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer & { id: string }> {
  const answer = await context.send({ path: '/v1/payments', body, headers });
  const id = answer.json?.id;
  context.require(
    checkId,
    answer.status >= 200 && answer.status < 300 && typeof id === 'string',
    'a created payment (2xx with an id)',
    `${statusOf(answer)}${typeof id === 'string' ? '' : ', no id'}`,
    answer,
  );
  return Object.assign(answer, { id: id as string });
}

/**
 * The path of a payment, or of one of its actions.
 *
 * @example
 * paymentPath('pay_123', '/capture'); // '/v1/payments/pay_123/capture'
 */
export function paymentPath(id: string, action = ''): string {
  return `/v1/payments/${encodeURIComponent(id)}${action}`;
}
