// Payment fixtures for `sandbox.seed()`: defaults that follow the status, checked against the spec and the lifecycle.
import { openapiDocument } from '@payment-service/openapi';
import type { TokenTable } from '../domain/tokens.js';
import type { PaymentData } from '../service/account-data.js';
import { newPaymentId, type RandomSource } from '../shared/ids.js';
import type { FieldError } from '../shared/problems.js';
import { formatTimestamp } from '../shared/time.js';
import type { ApiValidators } from '../shared/validation.js';
import type { Payment, PaymentStatus } from './types.js';

/** The fixtures or snapshot given to the sandbox do not hold: every problem is in `errors`. */
export class SandboxFixtureError extends TypeError {
  override readonly name = 'SandboxFixtureError';
  constructor(
    what: string,
    readonly errors: FieldError[],
  ) {
    const count = errors.length === 1 ? '1 problem' : `${errors.length} problems`;
    super(`${what}: ${count}:\n${errors.map((error) => `- ${error.message}`).join('\n')}`);
  }
}

/** What checking a fixture needs from the sandbox. */
export interface FixtureContext {
  validators: ApiValidators;
  tokens: TokenTable;
  random: RandomSource;
  /** The key's clock now (ms epoch). */
  now: number;
  settlementDelayMs: number;
  /** Ids the key already has. */
  existingIds: ReadonlySet<string>;
}

/** What the lifecycle requires of a payment in each status (`spec/openapi.yaml`'s transitions). */
interface StatusRule {
  /** `capture` must be this, when set. */
  capture?: boolean;
  captured: 'none' | 'some' | 'all-refunded';
  failed: boolean;
  /** The default token. */
  token: string;
}

const RULES: Readonly<Record<PaymentStatus, StatusRule>> = {
  PENDING: { captured: 'none', failed: false, token: 'tok_test_pending' },
  AUTHORIZED: { capture: false, captured: 'none', failed: false, token: 'tok_test_success' },
  SUCCEEDED: { captured: 'some', failed: false, token: 'tok_test_success' },
  FAILED: { captured: 'none', failed: true, token: 'tok_test_declined' },
  CANCELED: { capture: false, captured: 'none', failed: false, token: 'tok_test_success' },
  REFUNDED: { captured: 'all-refunded', failed: false, token: 'tok_test_success' },
};

const PAYMENT_FIELDS = Object.keys(openapiDocument.components.schemas.Payment.properties);
const FIXTURE_FIELDS = [...PAYMENT_FIELDS, 'token'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The field errors of a spec check, with `where` in front of each parameter. */
function located(where: string, errors: readonly FieldError[]): FieldError[] {
  return errors.map((error) => {
    const param = error.param === '' ? where : `${where}.${error.param}`;
    const message = error.message.startsWith(error.param)
      ? `${param}${error.message.slice(error.param.length)}`
      : `${where}: ${error.message}`;
    return { param, code: error.code, message };
  });
}

/**
 * Builds the stored payments of `sandbox.seed({ payments })`, oldest first: each fixture's
 * defaults follow its status, the result is checked against the spec's `Payment` schema and the
 * lifecycle. Throws a `SandboxFixtureError` listing every problem of every fixture.
 *
 * @example
 * paymentsFromFixtures([{ status: 'SUCCEEDED', amount: 1000, currency: 'KZT' }], context);
 * // [{ payment: { id: 'pay_…', status: 'SUCCEEDED', amount_captured: 1000, … }, token: 'tok_test_success', … }]
 */
export function paymentsFromFixtures(fixtures: unknown, context: FixtureContext): PaymentData[] {
  if (!Array.isArray(fixtures)) {
    const message = 'payments must be an array of payment fixtures';
    throw new SandboxFixtureError('sandbox.seed()', [{ param: 'payments', code: 'type', message }]);
  }
  const errors: FieldError[] = [];
  const ids = new Set(context.existingIds);
  const built: PaymentData[] = [];
  fixtures.forEach((fixture: unknown, index) => {
    const where = `payments[${index}]`;
    const result = paymentFromFixture(fixture, where, context, ids);
    if (!result.ok) {
      errors.push(...result.errors);
      return;
    }
    const { id } = result.value.payment;
    if (ids.has(id)) {
      const message = `${where}.id ${id} is already a payment of this sandbox; ids must be unique`;
      errors.push({ param: `${where}.id`, code: 'duplicate', message });
      return;
    }
    ids.add(id);
    built.push(result.value);
  });
  if (errors.length > 0) throw new SandboxFixtureError('sandbox.seed()', errors);
  return built;
}

type Built = { ok: true; value: PaymentData } | { ok: false; errors: FieldError[] };

/**
 * `fixture` as a payment; its id, unless it gives one, drawn again while `taken` holds it (a
 * sandbox restored from a snapshot of the same seed draws the ids it holds again).
 */
function paymentFromFixture(
  fixture: unknown,
  where: string,
  context: FixtureContext,
  taken: ReadonlySet<string>,
): Built {
  if (!isRecord(fixture)) {
    const message = `${where} must be an object such as { status: 'SUCCEEDED', amount: 1000, currency: 'KZT' }`;
    return { ok: false, errors: [{ param: where, code: 'type', message }] };
  }
  const unknown = Object.keys(fixture).filter((field) => !FIXTURE_FIELDS.includes(field));
  if (unknown.length > 0) {
    return {
      ok: false,
      errors: unknown.map((field) => ({
        param: `${where}.${field}`,
        code: 'unknown_field',
        message: `${where}.${field} is not a known field; a payment fixture accepts ${FIXTURE_FIELDS.join(', ')}`,
      })),
    };
  }
  const { token: givenToken, ...fields } = fixture;
  const rule: StatusRule | undefined = Object.hasOwn(RULES, String(fields.status))
    ? RULES[fields.status as PaymentStatus]
    : undefined;
  const amount = fields.amount;
  const captured = rule?.captured === 'none' ? 0 : amount;
  const failure = rule?.failed ? failureOf(context.tokens, rule.token) : undefined;
  let id = newPaymentId(context.random);
  while (taken.has(id)) id = newPaymentId(context.random);
  const candidate = {
    id,
    object: 'payment',
    capture: rule?.capture ?? true,
    description: null,
    created_at: formatTimestamp(context.now),
    amount_captured: captured,
    amount_refunded: rule?.captured === 'all-refunded' ? (fields.amount_captured ?? captured) : 0,
    failure_code: failure?.failure_code ?? null,
    failure_message: failure?.failure_message ?? null,
    ...fields,
  };
  const checked = context.validators.validator('Payment')(candidate);
  if (!checked.ok) return { ok: false, errors: located(where, checked.errors) };
  const payment = checked.value;
  const token = givenToken ?? (rule as StatusRule).token;
  const errors = lifecycleErrors(payment, token, where, context.tokens);
  if (errors.length > 0) return { ok: false, errors };
  const createdAt = Date.parse(payment.created_at);
  return {
    ok: true,
    value: {
      payment,
      token: token as string,
      settlesAt: payment.status === 'PENDING' ? createdAt + context.settlementDelayMs : undefined,
      timeline: [
        { at: createdAt, change: 'created', status: payment.status, amount: payment.amount },
      ],
    },
  };
}

function failureOf(tokens: TokenTable, token: string) {
  const outcome = tokens.behaviourOf(token)?.outcome;
  return outcome === undefined || outcome === 'success' ? undefined : outcome;
}

/**
 * What the lifecycle forbids in a payment that the schema alone allows (amounts, capture,
 * failure fields and token by status), each problem under `where`.
 *
 * @example
 * lifecycleErrors(payment, 'tok_test_success', 'payments[0]', tokens); // [] when it holds
 */
export function lifecycleErrors(
  payment: Payment,
  token: unknown,
  where: string,
  tokens: TokenTable,
): FieldError[] {
  const rule = RULES[payment.status];
  const errors: FieldError[] = [];
  const problem = (param: string, message: string) =>
    errors.push({
      param: `${where}.${param}`,
      code: 'invalid_value',
      message: `${where}.${message}`,
    });
  const status = `a ${payment.status} payment`;
  if (rule.capture !== undefined && payment.capture !== rule.capture) {
    problem('capture', `capture must be ${rule.capture} for ${status}`);
  }
  const { amount, amount_captured: captured, amount_refunded: refunded } = payment;
  if (rule.captured === 'none' && (captured !== 0 || refunded !== 0)) {
    problem('amount_captured', `amount_captured and amount_refunded must be 0 for ${status}`);
  }
  if (rule.captured !== 'none' && (captured < 1 || captured > amount)) {
    problem('amount_captured', `amount_captured must be 1 to amount (${amount}) for ${status}`);
  }
  if (rule.captured === 'some' && refunded >= captured) {
    problem(
      'amount_refunded',
      `amount_refunded must be below amount_captured for ${status} (a payment refunded in full is REFUNDED)`,
    );
  }
  if (rule.captured === 'all-refunded' && refunded !== captured) {
    problem(
      'amount_refunded',
      `amount_refunded must equal amount_captured (${captured}) for ${status}`,
    );
  }
  if (
    rule.failed !== (payment.failure_code !== null) ||
    rule.failed !== (payment.failure_message !== null)
  ) {
    problem(
      'failure_code',
      rule.failed
        ? `failure_code and failure_message must be set for ${status}`
        : `failure_code and failure_message must be null for ${status}`,
    );
  }
  if (typeof token !== 'string' || tokens.behaviourOf(token) === undefined) {
    problem('token', `token must be a test token of this sandbox: ${tokens.describe()}`);
  } else if (payment.status === 'PENDING' && tokens.behaviourOf(token)?.pending !== true) {
    problem(
      'token',
      `token ${token} does not settle: a PENDING payment needs a pending token (tok_test_pending, tok_test_pending_declined, …)`,
    );
  }
  return errors;
}
