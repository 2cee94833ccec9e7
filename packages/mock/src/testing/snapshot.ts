// Snapshots of a test sandbox's key: its whole state as versioned JSON, read back checked as the API would, with every problem named.
import type { TokenTable } from '../domain/tokens.js';
import type { WebhookAddressPolicy } from '../domain/webhook-address.js';
import { type AccountData, noWebhooks } from '../service/account-data.js';
import { MAX_CLOCK_OFFSET_SECONDS } from '../service/account-service.js';
import type { Faults } from '../shared/faults.js';
import type { ApiValidators, SandboxValidators } from '../shared/validation.js';
import { SandboxFixtureError } from './fixtures.js';
import { FIRST_INSTANT, iso, isRecord, Problems, shown, timeOf } from './snapshot-check.js';
import { readRecords, snapshotRecord } from './snapshot-idempotency.js';
import { readPayments, snapshotPayment } from './snapshot-payments.js';
import { readWebhooks, snapshotWebhooks } from './snapshot-webhooks.js';
import { type SandboxSnapshot, SNAPSHOT_VERSION } from './types.js';

const FORMAT = 'payment-service-mock.sandbox-snapshot';
/** The versions `restore()` reads: 1 (no webhooks, no offset) and this one. */
const READABLE_VERSIONS: readonly number[] = [1, SNAPSHOT_VERSION];

/**
 * A key's data as a snapshot: plain JSON with ISO times on the key's clock, no API key and no
 * `whsec_` secret (endpoints keep their signing keys in `signing_key_base64`).
 *
 * @example
 * JSON.stringify(toSnapshot(readAccountData(state, apiKey), clock.now()));
 */
export function toSnapshot(data: AccountData, serverNow: number): SandboxSnapshot {
  return {
    format: FORMAT,
    version: SNAPSHOT_VERSION,
    clock: iso(serverNow + data.offsetSeconds * 1000),
    clock_offset_seconds: data.offsetSeconds,
    faults: data.faults,
    payments: data.payments.map(snapshotPayment),
    idempotency_records: data.idempotencyRecords.map(snapshotRecord),
    ...snapshotWebhooks(data.webhooks),
  };
}

/** What reading a snapshot needs from the sandbox. */
export interface SnapshotContext {
  validators: ApiValidators;
  sandboxValidators: SandboxValidators;
  tokens: TokenTable;
  /** The addresses a restored endpoint may have. */
  webhookPolicy: WebhookAddressPolicy;
  /** The most payments (and idempotency records) a key keeps. */
  maxPaymentsPerKey: number;
  /** The server-wide endpoint's id, when there is one. */
  defaultEndpointId: string | undefined;
}

/** A snapshot read back: the key's data, and the sandbox clock's time to set (ms epoch). */
export interface ReadSnapshot {
  data: AccountData;
  /** The server clock's time: the snapshot's `clock` less the key's offset. */
  clock: number;
  /** A version 1 snapshot holds no webhooks: the sandbox keeps its `deliverTo` endpoints. */
  keepsEndpoints: boolean;
}

/**
 * Reads a snapshot back, checking every value as the API would (format and version, times
 * within the sandbox clock's range, the clock offset within its limit, each payment, stored
 * answer, endpoint, event, logged and queued delivery against the spec and the store's caps).
 * Throws a `SandboxFixtureError` naming every problem by path; changes nothing itself.
 *
 * @example
 * const { data, clock } = fromSnapshot(JSON.parse(text), context);
 */
export function fromSnapshot(snapshot: unknown, context: SnapshotContext): ReadSnapshot {
  const problems = new Problems();
  const what = 'sandbox.restore()';
  if (!isRecord(snapshot)) {
    problems.add('snapshot', 'the snapshot must be an object made by sandbox.snapshot()');
    throw new SandboxFixtureError(what, problems.errors);
  }
  if (snapshot.format !== FORMAT) {
    problems.add(
      'format',
      `format must be '${FORMAT}' (a snapshot made by sandbox.snapshot()); got ${shown(snapshot.format)}`,
    );
  }
  const version = snapshot.version;
  if (typeof version !== 'number' || !READABLE_VERSIONS.includes(version)) {
    problems.add(
      'version',
      `version ${shown(version)} is not supported: this @payment-service/mock reads snapshots of versions ${READABLE_VERSIONS.join(' and ')}`,
    );
  }
  if (problems.errors.length > 0) throw new SandboxFixtureError(what, problems.errors);
  const current = version === SNAPSHOT_VERSION;
  const clock = timeOf(snapshot.clock, 'clock', problems);
  const offsetSeconds = current ? offsetOf(snapshot.clock_offset_seconds, clock, problems) : 0;
  const faults = context.sandboxValidators.validator('Faults')(snapshot.faults);
  problems.check('faults', faults);
  const data: AccountData = {
    offsetSeconds,
    faults: faults.ok ? (faults.value as Faults) : {},
    payments: readPayments(
      snapshot.payments,
      { ...context, maxPayments: context.maxPaymentsPerKey },
      problems,
    ),
    idempotencyRecords: readRecords(
      snapshot.idempotency_records,
      {
        validators: context.validators,
        maxRecords: context.maxPaymentsPerKey,
        offsetMs: offsetSeconds * 1000,
      },
      problems,
    ),
    webhooks: current
      ? readWebhooks(snapshot, { ...context, policy: context.webhookPolicy }, problems)
      : noWebhooks(),
  };
  if (problems.errors.length > 0) throw new SandboxFixtureError(what, problems.errors);
  return { data, clock: clock - offsetSeconds * 1000, keepsEndpoints: !current };
}

/**
 * The key's clock offset: whole seconds within the limit, leaving the server clock in range
 * (`clock` NaN: the offset alone). Returns 0 after adding the problem.
 *
 * @example
 * offsetOf(3600, Number.NaN, problems); // 3600
 */
export function offsetOf(value: unknown, clock: number, problems: Problems): number {
  const fits =
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= 0 &&
    value <= MAX_CLOCK_OFFSET_SECONDS &&
    (Number.isNaN(clock) || clock - value * 1000 >= FIRST_INSTANT);
  if (!fits) {
    problems.add(
      'clock_offset_seconds',
      `clock_offset_seconds must be whole seconds from 0 to ${MAX_CLOCK_OFFSET_SECONDS} (100 years), and no more than the clock's time since year 0000; got ${shown(value)}`,
    );
    return 0;
  }
  return value;
}
