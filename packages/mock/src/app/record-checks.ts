// The checks of every record a store reads back (a journal line, a value in Valkey/Redis): each one the reader restore() uses for a snapshot, on the record turned into a snapshot's form.
import { errorCodes } from '@payment-service/openapi';
import type { TokenTable } from '../domain/tokens.js';
import type { WebhookAddressPolicy } from '../domain/webhook-address.js';
import { recordedRequest } from '../service/inspector.js';
import type { ApiValidators, SandboxValidators } from '../shared/validation.js';
import type { RecordChecks, RecordProblem, UncheckedPayment } from '../store/record-checks.js';
import type { RecordedEntry } from '../store/request-records.js';
import { offsetOf } from '../testing/snapshot.js';
import {
  isRecord,
  Problems,
  shown,
  storedTimeOf,
  type TimeReader,
} from '../testing/snapshot-check.js';
import { readRecord } from '../testing/snapshot-idempotency.js';
import { readPayment } from '../testing/snapshot-payments.js';
import {
  readAttempt,
  readDelivery,
  readEndpoint,
  readEvent,
} from '../testing/snapshot-webhooks.js';

/** What the checks need of the sandbox: the spec's validators, its tokens, its webhook policy. */
export interface RecordCheckContext {
  validators: ApiValidators;
  sandboxValidators: SandboxValidators;
  tokens: TokenTable;
  /** The addresses an endpoint may have (as the API checks a registration). */
  webhookPolicy: WebhookAddressPolicy;
}

/** The name the readers are given for the record: taken off the fields they name. */
const RECORD = 'record';

/** Payment texts remembered as checked, for the answers that repeat them (a create's). */
const CHECKED_PAYMENTS = 1024;

/** The first problem found, named from the record (`record.payment.status` → `payment.status`). */
function firstProblem(problems: Problems, kind: string): RecordProblem | undefined {
  const first = problems.errors[0];
  if (first === undefined) return undefined;
  const named = (text: string) => {
    if (text.startsWith(`${RECORD}.`)) return text.slice(RECORD.length + 1);
    return text.startsWith(RECORD) ? `${kind}${text.slice(RECORD.length)}` : text;
  };
  return { field: named(first.param), message: named(first.message) };
}

/** Runs one reader on a fresh problem list: its first problem, or undefined. */
function check(kind: string, read: (problems: Problems) => void): RecordProblem | undefined {
  const problems = new Problems();
  read(problems);
  return firstProblem(problems, kind);
}

/**
 * The checks of records read back from a store (see `RecordChecks`): each record is turned into
 * the form a snapshot gives it and read by the reader `restore()` uses (the spec's compiled
 * schemas, the payment lifecycle, the clock's bounds, the faults' schema, the endpoints' address
 * policy), plus what only a stored record holds (the id it is stored under, a sequence).
 *
 * @example
 * const checks = createRecordChecks({ validators, sandboxValidators, tokens, webhookPolicy });
 * checks.offset(1e300)?.field; // 'clock_offset_seconds'
 */
export function createRecordChecks(context: RecordCheckContext): RecordChecks {
  // The latest payment texts that passed, by payment id: a create's stored answer is the same
  // text (the journal writes it with its payment), checked once. The same strings as stored: no
  // copy is held. Keyed by the id, not by the text: an id is hashed once for the store's own map
  // anyway, where a set of texts hashed every 400-character text read back (6 % of a replay's
  // CPU). Forgotten oldest first through a ring of ids (a map read from its front after many
  // deletions scans the deleted slots until it is rehashed).
  const payments = new Map<string, string>();
  const remembered: (string | undefined)[] = new Array(CHECKED_PAYMENTS).fill(undefined);
  let next = 0;
  const checkedPayment = (body: string) => {
    const id = leadingId(body);
    // Equal text, not only the same id: a payment's later text is not its create's answer.
    return id !== undefined && payments.get(id) === body;
  };
  const rememberPayment = (id: string, json: string) => {
    if (!payments.has(id)) {
      const oldest = remembered[next];
      if (oldest !== undefined) payments.delete(oldest);
      remembered[next] = id;
      next = (next + 1) % CHECKED_PAYMENTS;
    }
    payments.set(id, json);
  };
  const paymentContext = { ...context, readTime: storedTimeOf };
  const endpointOf = (endpoint: unknown, key: unknown, problems: Problems) =>
    readEndpoint(
      { endpoint, signing_key_base64: key },
      RECORD,
      { validators: context.validators, policy: context.webhookPolicy },
      problems,
    );
  const eventOf = (event: unknown, problems: Problems): void => {
    if (!isRecord(event) || typeof event.body !== 'string') {
      problems.add(RECORD, `${RECORD} must be an object { id, type, body }`);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(event.body);
    } catch {
      problems.add(
        `${RECORD}.body`,
        `${RECORD}.body must be the event's JSON; got ${shown(event.body)}`,
      );
      return;
    }
    if (!asWritten(event.body, value)) {
      problems.add(`${RECORD}.body`, notAsWritten(`${RECORD}.body`, "the event's", event.body));
      return;
    }
    const read = readEvent(value, `${RECORD}.body`, context, problems);
    if (read === undefined) return;
    if (event.id !== read.id || event.type !== read.type) {
      problems.add(
        `${RECORD}.id`,
        `${RECORD}.id and type must be those of its body (${shown(read.id)}, ${shown(read.type)}); got ${shown(event.id)}, ${shown(event.type)}`,
      );
    }
  };
  return {
    payment: (payment) => {
      const problem = check('payment', (problems) => paymentOf(payment, paymentContext, problems));
      if (problem === undefined) rememberPayment(payment.id as string, payment.json as string);
      return problem;
    },
    idempotencyRecord: (record, inFlight) =>
      check('record', (problems) => {
        if (!isRecord(record)) {
          problems.add(RECORD, `${RECORD} must be an Idempotency-Key record`);
          return;
        }
        const response = record.response;
        const entry = {
          key: record.key,
          method: record.method,
          path: record.path,
          body_fingerprint: record.bodyFingerprint,
          response: isRecord(response)
            ? { status: response.status, headers: response.headers, body: response.body }
            : response,
          expires_at: record.expiresAt,
        };
        readRecord(
          entry,
          RECORD,
          {
            validators: context.validators,
            offsetMs: 0,
            inFlight,
            readTime: storedTimeOf,
            checkedPayment,
          },
          problems,
        );
        const body = isRecord(response) ? response.body : undefined;
        if (problems.errors.length === 0 && typeof body === 'string' && !checkedPayment(body)) {
          let value: unknown;
          try {
            value = JSON.parse(body);
          } catch {
            // Not JSON: refused above, as a body the API never answers.
          }
          if (value !== undefined && !asWritten(body, value)) {
            const where = `${RECORD}.response.body`;
            problems.add(where, notAsWritten(where, 'the answer', body));
          }
        }
        storedTimeOf(record.serverExpiresAt, `${RECORD}.serverExpiresAt`, problems);
        const code = isRecord(response) ? response.code : undefined;
        if (code !== undefined && (typeof code !== 'string' || !Object.hasOwn(errorCodes, code))) {
          problems.add(
            `${RECORD}.response.code`,
            `${RECORD}.response.code must be one of the API's error codes; got ${shown(code)}`,
          );
        }
      }),
    faults: (faults) =>
      check('faults', (problems) => {
        problems.check(RECORD, context.sandboxValidators.validator('Faults')(faults));
      }),
    offset: (seconds) =>
      check('clock offset', (problems) => {
        offsetOf(seconds, Number.NaN, problems);
      }),
    endpoint: (endpoint, key) =>
      check('endpoint', (problems) => {
        endpointOf(endpoint, key, problems);
      }),
    event: (event) => check('event', (problems) => eventOf(event, problems)),
    delivery: (entry) =>
      check('delivery', (problems) => {
        readDelivery(entry, RECORD, context, problems);
      }),
    attempt: (attempt) =>
      check('attempt', (problems) => {
        if (!isRecord(attempt)) {
          problems.add(RECORD, `${RECORD} must be an object { event, attempt, dueAt, sequence }`);
          return;
        }
        const nested = new Problems();
        eventOf(attempt.event, nested);
        for (const error of nested.errors) {
          problems.add(
            error.param.replace(RECORD, `${RECORD}.event`),
            error.message.replace(RECORD, `${RECORD}.event`),
          );
        }
        readAttempt(attempt.attempt, attempt.dueAt, RECORD, problems, storedTimeOf);
        const { sequence } = attempt;
        if (typeof sequence !== 'number' || !Number.isSafeInteger(sequence) || sequence < 0) {
          problems.add(
            `${RECORD}.sequence`,
            `${RECORD}.sequence must be an integer from 0; got ${shown(sequence)}`,
          );
        }
      }),
    request: (entry) =>
      check('request', (problems) => {
        if (!isRecord(entry)) {
          problems.add(RECORD, `${RECORD} must be a recorded request`);
          return;
        }
        if (Number.isNaN(storedTimeOf(entry.receivedAt, `${RECORD}.receivedAt`, problems))) return;
        let shownEntry: unknown;
        try {
          // What the inspector shows of it: the spec's RecordedRequest is checked on that.
          shownEntry = recordedRequest(entry as unknown as RecordedEntry);
        } catch {
          problems.add(RECORD, `${RECORD} must be a recorded request; got ${shown(entry)}`);
          return;
        }
        problems.check(RECORD, context.sandboxValidators.validator('RecordedRequest')(shownEntry));
      }),
  };
}

/** How a payment's JSON text starts (`JSON.stringify` of a payment: its id first). */
const ID_START = '{"id":"';

/**
 * The id a payment's JSON text starts with, read off the text without parsing it (undefined when
 * it starts otherwise); only looked up, so a text that escapes its id is merely not found.
 */
function leadingId(text: string): string | undefined {
  if (!text.startsWith(ID_START)) return undefined;
  const end = text.indexOf('"', ID_START.length);
  return end === -1 || end > ID_START.length + 255 ? undefined : text.slice(ID_START.length, end);
}

/**
 * Whether a JSON text read back is written as the sandbox writes it (`JSON.stringify` of its
 * value): the API sends a payment's, an answer's and an event's text as it is, so a text with
 * spaces, escapes, repeated members or number forms of its own (`1e3`, `1000.0`, which a client's
 * strict integer field refuses) would reach clients as it was stored.
 */
function asWritten(text: string, value: unknown): boolean {
  return JSON.stringify(value) === text;
}

function notAsWritten(where: string, what: string, text: unknown): string {
  return `${where} must be ${what} JSON as the sandbox writes it (no spaces, escapes, repeated members or number forms of its own: it is sent as it is); got ${shown(text)}`;
}

/** A stored payment, read as a snapshot's payment is, stored under its own id. */
function paymentOf(
  stored: UncheckedPayment,
  context: RecordCheckContext & { readTime: TimeReader },
  problems: Problems,
) {
  const { json } = stored;
  let payment: unknown;
  try {
    payment = typeof json === 'string' ? JSON.parse(json) : undefined;
  } catch {
    // Refused below.
  }
  if (payment === undefined) {
    problems.add(
      `${RECORD}.payment`,
      `${RECORD}.payment must be the payment's JSON; got ${shown(json)}`,
    );
    return;
  }
  if (!asWritten(json as string, payment)) {
    problems.add(`${RECORD}.payment`, notAsWritten(`${RECORD}.payment`, "the payment's", json));
    return;
  }
  const timeline = stepsOf(stored.timeline, problems);
  if (timeline === undefined) return;
  const settlesAt = stored.settlesAt;
  const read = readPayment(
    {
      payment,
      token: stored.token,
      settles_at: settlesAt === undefined || settlesAt === null ? null : settlesAt,
      timeline,
    },
    RECORD,
    context,
    problems,
  );
  if (read !== undefined && read.payment.id !== stored.id) {
    problems.add(
      `${RECORD}.payment.id`,
      `${RECORD}.payment.id must be the id the payment is stored under (${shown(stored.id)}); got ${shown(read.payment.id)}`,
    );
  }
}

/** A packed timeline as a snapshot's steps (undefined, after adding the problem, when it is not one). */
function stepsOf(packed: unknown, problems: Problems): unknown[] | undefined {
  const where = `${RECORD}.timeline`;
  if (!Array.isArray(packed) || packed.length !== 4) {
    problems.add(
      where,
      `${where} must be [created at, status, amount, later steps as JSON or null]; got ${shown(packed)}`,
    );
    return undefined;
  }
  const [at, status, amount, changes] = packed as unknown[];
  let later: unknown = [];
  try {
    later = changes === null ? [] : typeof changes === 'string' ? JSON.parse(changes) : undefined;
  } catch {
    later = undefined;
  }
  if (!Array.isArray(later)) {
    problems.add(
      `${where}[3]`,
      `${where}[3] must be null or the JSON of the later steps; got ${shown(changes)}`,
    );
    return undefined;
  }
  return [{ at, change: 'created', status, amount }, ...later];
}
