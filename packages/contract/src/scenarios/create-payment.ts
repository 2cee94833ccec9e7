// Creating payments: the documented facts (SUCCEEDED on capture with a success token, amount and currency as sent) and our model of the other tokens.
import { testTokens } from '@payment-service/openapi';
import { defineScenario, statusOf } from '../runner/scenario.js';
import { createPaymentStep, paymentBody, paymentPath } from './payments.js';
import { createsPayment } from './shared-checks.js';
import { elements } from './spec-refs.js';

/** The tokens that decline at once, with their failure_code (the spec's test-token table). */
const DECLINES = testTokens.flatMap((entry) =>
  'failure_code' in entry && entry.description.startsWith('`FAILED`')
    ? [[entry.token, entry.failure_code] as const]
    : [],
);

/** The create-payment scenario. */
export const createPayment = defineScenario({
  id: 'create-payment',
  title: 'Create payments with every kind of test token',
  checks: [
    createsPayment,
    {
      id: 'createPayment.captured-is-succeeded',
      operation: 'createPayment',
      title: 'capture: true with tok_test_success returns status SUCCEEDED',
      element: elements.status('SUCCEEDED'),
    },
    {
      id: 'createPayment.fields-as-sent',
      operation: 'createPayment',
      title: 'the payment has id pay_…, object payment, and amount and currency as sent',
      element: elements.schema('Payment'),
    },
    {
      id: 'createPayment.distinct-ids',
      operation: 'createPayment',
      title: 'two payments get two different ids',
      element: elements.property('Payment', 'id'),
    },
    {
      id: 'createPayment.description-echoed',
      operation: 'createPayment',
      title: 'the description and capture flag come back as sent',
      element: elements.property('Payment', 'description'),
    },
    {
      id: 'createPayment.authorized-without-capture',
      operation: 'createPayment',
      title: 'capture: false with tok_test_success returns AUTHORIZED with nothing captured',
      element: elements.status('AUTHORIZED'),
    },
    {
      id: 'createPayment.decline-is-failed',
      operation: 'createPayment',
      title: 'a declining test token returns a FAILED payment (2xx, not an error)',
      element: elements.status('FAILED'),
    },
    {
      id: 'createPayment.failure-code',
      operation: 'createPayment',
      title: "a FAILED payment names the token's failure_code and a failure_message",
      element: elements.property('Payment', 'failure_code'),
    },
    {
      id: 'createPayment.pending',
      operation: 'createPayment',
      title: 'tok_test_pending returns a PENDING payment',
      element: elements.status('PENDING'),
    },
    {
      id: 'retrievePayment.as-created',
      operation: 'retrievePayment',
      title: 'retrieving a payment returns it as created',
      element: elements.operation('/v1/payments/{id}', 'get'),
    },
  ],
  async run(context) {
    const body = paymentBody(context, 'tok_test_success', {
      amount: 150_000,
      description: `Order ${context.runId}`,
    });
    const created = await createPaymentStep(context, createsPayment.id, body);
    const payment = created.json;
    context.check(
      'createPayment.captured-is-succeeded',
      payment.status === 'SUCCEEDED',
      'status SUCCEEDED',
      `status ${JSON.stringify(payment.status)}`,
      created,
    );
    const wrong = [
      typeof payment.id === 'string' && payment.id.startsWith('pay_')
        ? ''
        : `id ${JSON.stringify(payment.id)}`,
      payment.object === 'payment' ? '' : `object ${JSON.stringify(payment.object)}`,
      payment.amount === 150_000 ? '' : `amount ${JSON.stringify(payment.amount)}`,
      payment.currency === 'KZT' ? '' : `currency ${JSON.stringify(payment.currency)}`,
    ].filter(Boolean);
    context.check(
      'createPayment.fields-as-sent',
      wrong.length === 0,
      'id pay_…, object payment, amount 150000, currency KZT',
      wrong.join(', ') || 'as expected',
      created,
    );
    context.check(
      'createPayment.description-echoed',
      payment.description === body.description && payment.capture === true,
      `description ${JSON.stringify(body.description)} and capture true`,
      `description ${JSON.stringify(payment.description)}, capture ${JSON.stringify(payment.capture)}`,
      created,
    );

    const retrieved = await context.send({ path: paymentPath(created.id) });
    context.check(
      'retrievePayment.as-created',
      retrieved.status === 200 && JSON.stringify(retrieved.json) === JSON.stringify(payment),
      'the payment as created',
      retrieved.status === 200 ? 'another body' : statusOf(retrieved),
      retrieved,
    );

    const authorized = await createPaymentStep(
      context,
      createsPayment.id,
      paymentBody(context, 'tok_test_success', { capture: false, amount: 999, currency: 'RUB' }),
    );
    context.check(
      'createPayment.distinct-ids',
      authorized.id !== created.id,
      'a new id',
      `the same id ${authorized.id}`,
      authorized,
    );
    context.check(
      'createPayment.authorized-without-capture',
      authorized.json.status === 'AUTHORIZED' && authorized.json.amount_captured === 0,
      'status AUTHORIZED, amount_captured 0',
      `status ${JSON.stringify(authorized.json.status)}, amount_captured ${JSON.stringify(authorized.json.amount_captured)}`,
      authorized,
    );

    for (const [token, failureCode] of DECLINES) {
      const declined = await createPaymentStep(
        context,
        createsPayment.id,
        paymentBody(context, token, { amount: 500 }),
      );
      context.check(
        'createPayment.decline-is-failed',
        declined.json.status === 'FAILED',
        `${token}: status FAILED`,
        `${token}: status ${JSON.stringify(declined.json.status)}`,
        declined,
      );
      context.check(
        'createPayment.failure-code',
        declined.json.failure_code === failureCode &&
          typeof declined.json.failure_message === 'string',
        `${token}: failure_code ${failureCode} and a failure_message`,
        `failure_code ${JSON.stringify(declined.json.failure_code)}, failure_message ${JSON.stringify(declined.json.failure_message)}`,
        declined,
      );
    }

    const pending = await createPaymentStep(
      context,
      createsPayment.id,
      paymentBody(context, 'tok_test_pending'),
    );
    context.check(
      'createPayment.pending',
      pending.json.status === 'PENDING',
      'status PENDING',
      `status ${JSON.stringify(pending.json.status)}`,
      pending,
    );
  },
});
