// What a store checks of each record it reads back (a journal line, a value in Valkey/Redis): the API's and restore()'s own rules, handed in by the entry that holds them.

/** What is wrong with a record read back: the field (a path such as `payment.status`) and what it must be. */
export interface RecordProblem {
  field: string;
  message: string;
}

/** A payment as a store holds it, every part unchecked (read from outside the process). */
export interface UncheckedPayment {
  /** The id it is stored under. */
  id: unknown;
  /** Its JSON text, as the API answers it. */
  json: unknown;
  token: unknown;
  /** When it settles (ms epoch), or undefined/null when it does not. */
  settlesAt: unknown;
  /** The packed timeline: creation time, status, amount, later steps as JSON or null. */
  timeline: unknown;
}

/**
 * The checks every record read back from a store passes before it is used: the same rules the
 * API applies to what it accepts and `restore()` to a snapshot (the spec's schemas, the payment
 * lifecycle, the faults' and endpoints' own checks, the clock's bounds). Each answers the first
 * problem found, or undefined when the record holds. Built by the entry (app/record-checks.ts),
 * which knows the spec and the server's settings; the store layer only calls them.
 *
 * @example
 * const problem = checks.faults(JSON.parse(text));
 * if (problem !== undefined) throw new Error(`${problem.field}: ${problem.message}`);
 */
export interface RecordChecks {
  payment(payment: UncheckedPayment): RecordProblem | undefined;
  /**
   * An Idempotency-Key record: `{ key, method, path, bodyFingerprint, response?, expiresAt,
   * serverExpiresAt }`; without a response only where a store keeps records in flight.
   */
  idempotencyRecord(record: unknown, inFlight: boolean): RecordProblem | undefined;
  /** A key's armed faults, as `PUT /_sandbox/faults` stores them. */
  faults(faults: unknown): RecordProblem | undefined;
  /** A key's clock offset, in seconds. */
  offset(seconds: unknown): RecordProblem | undefined;
  /** A webhook endpoint and its signing key in base64. */
  endpoint(endpoint: unknown, keyBase64: unknown): RecordProblem | undefined;
  /** An event as sent: `{ id, type, body }`, the body the spec's `Event`. */
  event(event: unknown): RecordProblem | undefined;
  /** One entry of the delivery log (the sandbox spec's `WebhookDelivery`). */
  delivery(entry: unknown): RecordProblem | undefined;
  /** A delivery attempt waiting: `{ event, attempt, dueAt, sequence }` (its endpoint apart). */
  attempt(attempt: unknown): RecordProblem | undefined;
  /** One request of the console inspector's log (a `RecordedEntry`). */
  request(entry: unknown): RecordProblem | undefined;
}

/**
 * A record read back from a store failed its checks: `where` names the place (a journal file and
 * byte offset, a Valkey/Redis key), `what` the kind of record.
 *
 * @example
 * describeProblem('a payment', { field: 'payment.status', message: 'payment.status must be one of …' });
 * // 'a payment whose payment.status is wrong: payment.status must be one of …'
 */
export function describeProblem(what: string, problem: RecordProblem): string {
  return `${what} whose ${problem.field} is wrong: ${problem.message}`;
}
