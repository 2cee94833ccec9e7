// The payment lifecycle on the run's own payments: capture (whole and part), cancel, refunds, and every action the status forbids.
import type { ScenarioContext } from '../runner/scenario.js';
import { defineScenario, statusOf } from '../runner/scenario.js';
import type { Answer } from '../runner/transport.js';
import { createPaymentStep, paymentBody, paymentPath } from './payments.js';
import { createsPayment } from './shared-checks.js';
import { elements } from './spec-refs.js';

const ACTIONS = {
  capture: { path: '/capture', operation: 'capturePayment' },
  cancel: { path: '/cancel', operation: 'cancelPayment' },
  refund: { path: '/refunds', operation: 'createRefund' },
} as const;
type Action = keyof typeof ACTIONS;

/** The actions each status forbids (409 invalid_state), with the token and capture flag that create a payment in that status. */
export const forbiddenActions: ReadonlyArray<readonly [Action, string, string, boolean]> = [
  ['capture', 'SUCCEEDED', 'tok_test_success', true],
  ['cancel', 'SUCCEEDED', 'tok_test_success', true],
  ['refund', 'AUTHORIZED', 'tok_test_success', false],
  ['capture', 'FAILED', 'tok_test_declined', true],
  ['cancel', 'FAILED', 'tok_test_declined', true],
  ['refund', 'FAILED', 'tok_test_declined', true],
  ['capture', 'PENDING', 'tok_test_pending', true],
  ['cancel', 'PENDING', 'tok_test_pending', true],
  ['refund', 'PENDING', 'tok_test_pending', true],
];

function act(
  context: ScenarioContext,
  action: Action,
  id: string,
  body: unknown = {},
): Promise<Answer> {
  return context.send({ path: paymentPath(id, ACTIONS[action].path), body });
}

/** Checks a field of an answer's JSON and says what came back. */
function fields(answer: Answer, expected: Record<string, unknown>): string {
  const wrong = Object.entries(expected)
    .filter(([name, value]) => answer.json?.[name] !== value)
    .map(([name]) => `${name} ${JSON.stringify(answer.json?.[name])}`);
  return answer.status >= 300 ? statusOf(answer) : wrong.join(', ');
}

/** The lifecycle scenario. */
export const lifecycle = defineScenario({
  id: 'lifecycle',
  title: 'Capture, cancel and refund, and every transition the status forbids',
  checks: [
    createsPayment,
    {
      id: 'capturePayment.captures',
      operation: 'capturePayment',
      title: 'capturing an AUTHORIZED payment makes it SUCCEEDED with the whole amount captured',
      element: elements.operation('/v1/payments/{id}/capture', 'post'),
    },
    {
      id: 'capturePayment.captures-part',
      operation: 'capturePayment',
      title: 'a capture with an amount captures only that amount',
      element: elements.schema('CapturePaymentRequest'),
    },
    {
      id: 'capturePayment.over-authorized',
      operation: 'capturePayment',
      title: 'a capture above the authorized amount is 400 on amount and changes nothing',
      element: elements.schema('CapturePaymentRequest'),
    },
    {
      id: 'cancelPayment.cancels',
      operation: 'cancelPayment',
      title: 'canceling an AUTHORIZED payment makes it CANCELED',
      element: elements.status('CANCELED'),
    },
    {
      id: 'createRefund.refunds-part',
      operation: 'createRefund',
      title:
        'a partial refund returns a refund ref_… and counts in amount_refunded; the payment stays SUCCEEDED',
      element: elements.schema('Refund'),
    },
    {
      id: 'createRefund.refunds-rest',
      operation: 'createRefund',
      title: 'a refund without amount refunds the rest and makes the payment REFUNDED',
      element: elements.status('REFUNDED'),
    },
    {
      id: 'createRefund.over-captured',
      operation: 'createRefund',
      title: 'a refund above what was captured is 400 on amount',
      element: elements.schema('CreateRefundRequest'),
    },
    ...Object.values(ACTIONS).map(({ operation }) => ({
      id: `${operation}.invalid-state` as const,
      operation,
      title:
        'an action the payment’s status forbids is 409 invalid_state naming the status, and changes nothing',
      element: elements.errorCode('invalid_state'),
    })),
  ],
  async run(context) {
    const authorized = await createPaymentStep(
      context,
      createsPayment.id,
      paymentBody(context, 'tok_test_success', { capture: false }),
    );
    const captured = await act(context, 'capture', authorized.id);
    const expectCaptured = { status: 'SUCCEEDED', amount_captured: 10_000, amount_refunded: 0 };
    context.require(
      'capturePayment.captures',
      fields(captured, expectCaptured) === '',
      'SUCCEEDED, amount_captured 10000',
      fields(captured, expectCaptured),
      captured,
    );

    const part = await act(context, 'refund', authorized.id, { amount: 2_500 });
    const after = await context.send({ path: paymentPath(authorized.id) });
    const partProblems = [
      fields(part, { object: 'refund', amount: 2_500, payment_id: authorized.id, currency: 'KZT' }),
      fields(after, { status: 'SUCCEEDED', amount_refunded: 2_500 }),
    ].filter(Boolean);
    if (!String(part.json?.id ?? '').startsWith('ref_'))
      partProblems.push(`refund id ${JSON.stringify(part.json?.id)}`);
    context.check(
      'createRefund.refunds-part',
      partProblems.length === 0,
      'a refund of 2500; the payment SUCCEEDED with amount_refunded 2500',
      partProblems.join('; '),
      part,
    );

    const rest = await act(context, 'refund', authorized.id);
    const refunded = await context.send({ path: paymentPath(authorized.id) });
    const restProblems = [
      fields(rest, { amount: 7_500 }),
      fields(refunded, { status: 'REFUNDED', amount_refunded: 10_000 }),
    ].filter(Boolean);
    context.check(
      'createRefund.refunds-rest',
      restProblems.length === 0,
      'a refund of 7500; the payment REFUNDED',
      restProblems.join('; '),
      rest,
    );

    const partial = await createPaymentStep(
      context,
      createsPayment.id,
      paymentBody(context, 'tok_test_success', { capture: false, amount: 8_000 }),
    );
    const captureOver = await act(context, 'capture', partial.id, { amount: 8_001 });
    const stillAuthorized = await context.send({ path: paymentPath(partial.id) });
    context.check(
      'capturePayment.over-authorized',
      captureOver.status === 400 &&
        captureOver.json?.param === 'amount' &&
        stillAuthorized.json?.status === 'AUTHORIZED',
      '400 on amount; the payment still AUTHORIZED',
      `${statusOf(captureOver)} on ${JSON.stringify(captureOver.json?.param)}; the payment ${JSON.stringify(stillAuthorized.json?.status)}`,
      captureOver,
    );
    const capturedPart = await act(context, 'capture', partial.id, { amount: 5_000 });
    context.check(
      'capturePayment.captures-part',
      fields(capturedPart, { status: 'SUCCEEDED', amount: 8_000, amount_captured: 5_000 }) === '',
      'SUCCEEDED, amount 8000, amount_captured 5000',
      fields(capturedPart, { status: 'SUCCEEDED', amount: 8_000, amount_captured: 5_000 }),
      capturedPart,
    );
    const refundOver = await act(context, 'refund', partial.id, { amount: 5_001 });
    context.check(
      'createRefund.over-captured',
      refundOver.status === 400 && refundOver.json?.param === 'amount',
      '400 on amount',
      `${statusOf(refundOver)} on ${JSON.stringify(refundOver.json?.param)}`,
      refundOver,
    );

    const toCancel = await createPaymentStep(
      context,
      createsPayment.id,
      paymentBody(context, 'tok_test_success', { capture: false }),
    );
    const canceled = await act(context, 'cancel', toCancel.id);
    context.check(
      'cancelPayment.cancels',
      fields(canceled, { status: 'CANCELED', amount_captured: 0 }) === '',
      'CANCELED, amount_captured 0',
      fields(canceled, { status: 'CANCELED', amount_captured: 0 }),
      canceled,
    );

    const refusals: Array<[Action, string, string]> = [
      ...forbiddenActions.map(([action, status]): [Action, string, string] => [action, status, '']),
      ['capture', 'CANCELED', toCancel.id],
      ['cancel', 'CANCELED', toCancel.id],
      ['refund', 'CANCELED', toCancel.id],
      ['capture', 'REFUNDED', authorized.id],
      ['cancel', 'REFUNDED', authorized.id],
      ['refund', 'REFUNDED', authorized.id],
    ];
    for (const [index, [action, status, existing]] of refusals.entries()) {
      let id = existing;
      if (!id) {
        const [, , token, capture] = forbiddenActions[index] as readonly [
          Action,
          string,
          string,
          boolean,
        ];
        id = (
          await createPaymentStep(
            context,
            createsPayment.id,
            paymentBody(context, token, { capture }),
          )
        ).id;
      }
      const answer = await act(context, action, id);
      const unchanged = await context.send({ path: paymentPath(id) });
      const detail = String(answer.json?.detail ?? '');
      context.check(
        `${ACTIONS[action].operation}.invalid-state`,
        answer.status === 409 &&
          answer.code === 'invalid_state' &&
          detail.includes(status) &&
          unchanged.json?.status === status,
        `${action} of a ${status} payment: 409 invalid_state naming ${status}; still ${status}`,
        `${statusOf(answer)}${detail.includes(status) ? '' : ' (detail does not name the status)'}; now ${JSON.stringify(unchanged.json?.status)}`,
        answer,
      );
    }
  },
});
