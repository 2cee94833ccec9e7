// The documented facts an exchange shows only with its request beside its answer: a captured success-token payment is SUCCEEDED (§3), amount and currency come back as sent (§2.1); the same check ids as `check`'s scenarios.
import { elements } from '../scenarios/spec-refs.js';
import type { SchemaCheck, SchemaViolation } from '../validation/response-validator.js';

/** The checks this module runs, with `check`'s ids and elements. */
const CAPTURED_IS_SUCCEEDED: SchemaCheck = {
  id: 'createPayment.captured-is-succeeded',
  title: 'capture: true with tok_test_success returns status SUCCEEDED',
  element: elements.status('SUCCEEDED'),
};
const FIELDS_AS_SENT: SchemaCheck = {
  id: 'createPayment.amount-and-currency-as-sent',
  title: 'the created payment has the amount and currency the request sent',
  element: elements.schema('Payment'),
};

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The documented facts of one create-payment exchange (request body and 2xx answer, both parsed).
 *
 * @example
 * createPaymentFacts({ amount: 100, currency: 'KZT', payment_method: { type: 'token', token: 'tok_test_success' } }, { status: 'COMPLETED', amount: 100, currency: 'KZT' });
 * // { checks: [...], violations: [{ id: 'createPayment.captured-is-succeeded', expected: 'status SUCCEEDED', actual: 'status "COMPLETED"', … }] }
 */
export function createPaymentFacts(
  request: unknown,
  answer: unknown,
): { checks: SchemaCheck[]; violations: SchemaViolation[] } {
  const checks: SchemaCheck[] = [];
  const violations: SchemaViolation[] = [];
  if (!isObject(request) || !isObject(answer)) return { checks, violations };
  const method = request.payment_method;
  if (request.capture !== false && isObject(method) && method.token === 'tok_test_success') {
    checks.push(CAPTURED_IS_SUCCEEDED);
    if (answer.status !== 'SUCCEEDED')
      violations.push({
        ...CAPTURED_IS_SUCCEEDED,
        expected: 'status SUCCEEDED',
        actual: `status ${JSON.stringify(answer.status)?.slice(0, 120) ?? '(absent)'}`,
      });
  }
  if (typeof request.amount === 'number' && typeof request.currency === 'string') {
    checks.push(FIELDS_AS_SENT);
    const wrong = [
      answer.amount === request.amount
        ? ''
        : `amount ${JSON.stringify(answer.amount) ?? '(absent)'}`,
      answer.currency === request.currency
        ? ''
        : `currency ${JSON.stringify(answer.currency) ?? '(absent)'}`,
    ].filter((part) => part !== '');
    if (wrong.length > 0)
      violations.push({
        ...FIELDS_AS_SENT,
        expected: `amount ${request.amount} and currency ${JSON.stringify(request.currency)}, as sent`,
        actual: wrong.join(', ').slice(0, 240),
      });
  }
  return { checks, violations };
}
