// Snapshots of a test sandbox's key: its data as versioned JSON, written and read back with every problem named.
import { sandboxDocument } from '@payment-service/openapi';
import type { TokenTable } from '../domain/tokens.js';
import type { AccountData, PaymentData } from '../service/account-data.js';
import type { Faults } from '../shared/faults.js';
import type { FieldError } from '../shared/problems.js';
import type { ApiValidators, SandboxValidators } from '../shared/validation.js';
import type { TimelineStep } from '../store/account.js';
import { SandboxFixtureError } from './fixtures.js';
import { type SandboxSnapshot, SNAPSHOT_VERSION, type SnapshotPayment } from './types.js';

const FORMAT = 'payment-service-mock.sandbox-snapshot';
const iso = (ms: number) => new Date(ms).toISOString();
/** The changes a timeline step names: the sandbox spec's `TimelineEntry.change`. */
const CHANGES: readonly string[] =
  sandboxDocument.components.schemas.TimelineEntry.properties.change.enum;

/**
 * A key's data as a snapshot: plain JSON with ISO times, no API key and no webhook secret.
 *
 * @example
 * JSON.stringify(toSnapshot(readAccountData(state, apiKey), clock.now()));
 */
export function toSnapshot(data: AccountData, serverNow: number): SandboxSnapshot {
  const offsetMs = data.offsetSeconds * 1000;
  return {
    format: FORMAT,
    version: SNAPSHOT_VERSION,
    clock: iso(serverNow + offsetMs),
    faults: data.faults,
    payments: data.payments.map(({ payment, token, settlesAt, timeline }) => ({
      payment,
      token,
      settles_at: settlesAt === undefined ? null : iso(settlesAt),
      timeline: timeline.map((step) => ({ ...step, at: iso(step.at) })),
    })),
    idempotency_records: data.idempotencyRecords.map((record) => ({
      key: record.key,
      method: record.method,
      path: record.path,
      body_fingerprint: record.bodyFingerprint,
      response: record.response,
      expires_at: iso(record.expiresAt),
    })),
  };
}

/** What reading a snapshot needs from the sandbox. */
export interface SnapshotContext {
  validators: ApiValidators;
  sandboxValidators: SandboxValidators;
  tokens: TokenTable;
}

/**
 * Reads a snapshot back: checks its format, version and every payment (against the spec's
 * `Payment` schema), and returns the key's data with the clock it was taken at (ms epoch).
 * Throws a `SandboxFixtureError` naming every problem.
 *
 * @example
 * const { data, clock } = fromSnapshot(JSON.parse(text), context);
 */
export function fromSnapshot(
  snapshot: unknown,
  context: SnapshotContext,
): { data: AccountData; clock: number } {
  const errors: FieldError[] = [];
  const fail = (param: string, message: string) =>
    errors.push({ param, code: 'invalid_value', message });
  const what = 'sandbox.restore()';
  if (typeof snapshot !== 'object' || snapshot === null || Array.isArray(snapshot)) {
    fail('snapshot', 'the snapshot must be an object made by sandbox.snapshot()');
    throw new SandboxFixtureError(what, errors);
  }
  const given = snapshot as Partial<Record<keyof SandboxSnapshot, unknown>>;
  if (given.format !== FORMAT) {
    fail(
      'format',
      `format must be '${FORMAT}' (a snapshot made by sandbox.snapshot()); got ${JSON.stringify(given.format)}`,
    );
  }
  if (given.version !== SNAPSHOT_VERSION) {
    fail(
      'version',
      `version ${JSON.stringify(given.version)} is not supported: this @payment-service/mock reads snapshots of version ${SNAPSHOT_VERSION}`,
    );
  }
  if (errors.length > 0) throw new SandboxFixtureError(what, errors);
  const clock = timeOf(given.clock, 'clock', fail);
  const faults = context.sandboxValidators.validator('Faults')(given.faults);
  if (!faults.ok)
    for (const error of faults.errors) fail(`faults.${error.param}`, `faults: ${error.message}`);
  const payments = Array.isArray(given.payments) ? given.payments : [];
  if (!Array.isArray(given.payments)) fail('payments', 'payments must be an array');
  const records = Array.isArray(given.idempotency_records) ? given.idempotency_records : [];
  if (!Array.isArray(given.idempotency_records)) {
    fail('idempotency_records', 'idempotency_records must be an array');
  }
  const data: AccountData = {
    offsetSeconds: 0,
    faults: faults.ok ? (faults.value as Faults) : {},
    payments: payments.map((entry: unknown, index) =>
      paymentOf(entry, `payments[${index}]`, context, fail, errors),
    ),
    idempotencyRecords: records.map((entry: unknown, index) => {
      const where = `idempotency_records[${index}]`;
      const record = (entry ?? {}) as SandboxSnapshot['idempotency_records'][number];
      const expiresAt = timeOf(record.expires_at, `${where}.expires_at`, fail);
      const response = record.response ?? {};
      if (
        typeof record.key !== 'string' ||
        typeof record.method !== 'string' ||
        typeof record.path !== 'string' ||
        typeof record.body_fingerprint !== 'string' ||
        typeof response.status !== 'number' ||
        typeof response.body !== 'string' ||
        typeof response.headers !== 'object'
      ) {
        fail(
          where,
          `${where} must hold key, method, path, body_fingerprint and response { status, headers, body }`,
        );
      }
      return {
        key: record.key,
        method: record.method,
        path: record.path,
        bodyFingerprint: record.body_fingerprint,
        response: {
          status: response.status,
          headers: { ...response.headers },
          body: response.body,
        },
        expiresAt,
        serverExpiresAt: expiresAt,
      };
    }),
  };
  if (errors.length > 0) throw new SandboxFixtureError(what, errors);
  return { data, clock };
}

function timeOf(value: unknown, param: string, fail: (param: string, message: string) => void) {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    fail(param, `${param} must be an ISO 8601 time; got ${JSON.stringify(value)}`);
  return ms;
}

function paymentOf(
  entry: unknown,
  where: string,
  context: SnapshotContext,
  fail: (param: string, message: string) => void,
  errors: FieldError[],
): PaymentData {
  const given = (entry ?? {}) as Partial<SnapshotPayment>;
  const checked = context.validators.validator('Payment')(given.payment);
  if (!checked.ok) {
    for (const error of checked.errors) {
      const param = `${where}.payment${error.param === '' ? '' : `.${error.param}`}`;
      errors.push({ ...error, param, message: `${where}.payment: ${error.message}` });
    }
  }
  const token = typeof given.token === 'string' ? given.token : '';
  if (context.tokens.behaviourOf(token) === undefined) {
    fail(
      `${where}.token`,
      `${where}.token must be a test token of this sandbox; got ${JSON.stringify(given.token)}`,
    );
  }
  const settlesAt =
    given.settles_at === null || given.settles_at === undefined
      ? undefined
      : timeOf(given.settles_at, `${where}.settles_at`, fail);
  const steps = Array.isArray(given.timeline) ? given.timeline : [];
  if (steps.length === 0)
    fail(`${where}.timeline`, `${where}.timeline must list the payment's creation at least`);
  const timeline = steps.map((step, index) => {
    const at = timeOf(step?.at, `${where}.timeline[${index}].at`, fail);
    if (!CHANGES.includes(String(step?.change)) || typeof step?.amount !== 'number') {
      fail(
        `${where}.timeline[${index}]`,
        `${where}.timeline[${index}] must have change (${CHANGES.join(', ')}), status and amount`,
      );
    }
    return {
      at,
      change: step.change as TimelineStep['change'],
      status: step.status,
      amount: step.amount,
    };
  });
  return {
    payment: checked.ok ? checked.value : (given.payment as never),
    token,
    settlesAt,
    timeline,
  };
}
