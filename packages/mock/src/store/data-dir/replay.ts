// Rebuilds the store from a journal: each change applied in order, later lines replacing earlier ones.
import { intern } from '../../shared/intern.js';
import { paymentBytes } from '../byte-sizes.js';
import type { Account } from '../memory/account.js';
import type { MemoryStore } from '../memory/memory-store.js';
import { describeProblem, type RecordChecks, type RecordProblem } from '../record-checks.js';
import type { IdempotencyRecord, PaymentRecord } from '../records.js';
import type { EndpointRecord } from '../webhook-records.js';
import { isKeyId, type JournalAttempt, type JournalLine } from './journal.js';
import type { JournaledStore } from './journaled-store.js';
import { DataDirectoryError } from './lock.js';

/**
 * A journal's reader: hands each change, in order, to `apply`; what `apply` throws it refuses
 * naming the file and the line's byte offset (see `readJournal`).
 */
export type JournalSource = (apply: (line: JournalLine) => void) => unknown;

/**
 * Applies a journal's changes, as they are read, to an empty store (which must not write them
 * again while it does), then queues the attempts that were never made. Each change is checked
 * first (`checks`: the rules of the API and of `restore()`): one that fails them throws a
 * `DataDirectoryError` naming the kind of record and the field, which the reader refuses the
 * start with, naming the file and the byte offset. Returns the accounts with attempts queued or
 * payments to settle, for the dispatcher to watch: what fell due while the sandbox was down
 * goes out at once.
 *
 * @example
 * const accounts = replayJournal(store, (apply) => directory.replay(apply), undefined, checks);
 */
export function replayJournal(
  store: JournaledStore,
  source: JournalSource,
  defaultEndpoint: EndpointRecord | undefined,
  checks: RecordChecks,
): Account[] {
  // Attempts queued and not yet made, per key id, by sequence: resolved once every line is in.
  const waiting = new Map<string, Map<number, JournalAttempt>>();
  // The accounts by key id as read (the store's own lookup builds a map key for each line).
  const accounts = new Map<string, Account>();
  const accountOf = (keyId: string): Account => {
    let account = accounts.get(keyId);
    if (account === undefined || account.closed) {
      account = store.restoredAccount(keyId);
      accounts.set(keyId, account);
    }
    return account;
  };
  const { memory } = store;
  source((line) => {
    const refuse = (what: string, problem: RecordProblem): never => {
      throw new DataDirectoryError(
        `${describeProblem(what, problem)}; the sandbox checks what it reads back as it checks what the API receives`,
      );
    };
    forgetSettledTime(line);
    const shape = checkShape(line, checks);
    if (shape !== undefined) refuse(shape[0], shape[1]);
    const keyId = line[1];
    switch (line[0]) {
      case 'p': {
        const [, , id, json, token, settlesAt, timeline] = line;
        const account = accountOf(keyId);
        restorePayment(memory, account, {
          id,
          json,
          token,
          settlesAt: settlesAt ?? undefined,
          timeline,
        });
        break;
      }
      case 'p-':
        memory.removePayment(accountOf(keyId), line[2]);
        break;
      case 'i': {
        const account = accountOf(keyId);
        const data = line[2];
        // A create's answer names its payment: the body is put in place, then the record checked.
        const named = line[3];
        if (named !== undefined && typeof data?.response === 'object' && data.response !== null) {
          const json = account.payments.get(named)?.json;
          if (json === undefined) {
            refuse('an Idempotency-Key record', {
              field: 'payment id',
              message: `its answer's body is payment ${named}, which the journal does not hold before this line`,
            });
          }
          data.response.body = json as string;
        }
        const problem = checks.idempotencyRecord(data, false);
        if (problem !== undefined) refuse('an Idempotency-Key record', problem);
        const response = data.response;
        // The shape the service's records have (a copy: the answer is added once it is stored).
        const record: IdempotencyRecord = {
          key: data.key,
          method: data.method,
          path: data.path,
          bodyFingerprint: data.bodyFingerprint,
          response: undefined,
          expiresAt: data.expiresAt,
          serverExpiresAt: data.serverExpiresAt,
          owner: undefined,
        };
        const existing = account.idempotencyRecords.get(record.key);
        if (existing !== undefined) memory.deleteIdempotencyRecord(account, existing);
        memory.addIdempotencyRecord(account, record);
        if (response !== undefined) memory.completeIdempotencyRecord(account, record, response);
        break;
      }
      case 'i-': {
        const account = accountOf(keyId);
        const existing = account.idempotencyRecords.get(line[2]);
        if (existing !== undefined) memory.deleteIdempotencyRecord(account, existing);
        break;
      }
      case 'f':
        accountOf(keyId).setFaults(line[2]);
        break;
      case 'o':
        accountOf(keyId).setOffset(line[2]);
        break;
      case 'r':
        store.resetRestored(keyId);
        waiting.delete(keyId);
        break;
      case 'e':
        store
          .restoredAccount(keyId)
          .webhookState()
          .putEndpoint({ endpoint: line[2], key: Buffer.from(line[3], 'base64') });
        break;
      case 'e-':
        accountOf(keyId).webhookState().deleteEndpoint(line[2]);
        break;
      case 'v':
        accountOf(keyId).webhookState().restoreEvent(line[2]);
        break;
      case 'q': {
        const attempts = waiting.get(keyId) ?? new Map<number, JournalAttempt>();
        waiting.set(keyId, attempts);
        attempts.set(line[2].sequence, line[2]);
        break;
      }
      case 'q-':
        waiting.get(keyId)?.delete(line[2]);
        break;
      case 'l':
        accountOf(keyId).webhookState().record(line[2]);
        break;
      default:
        // A change this version does not know cannot come from its own format version.
        throw new TypeError(
          `a change of unknown kind ${JSON.stringify((line as unknown[])[0])} (this version knows p, p-, i, i-, f, o, r, e, e-, v, q, q-, l)`,
        );
    }
  });
  const watched = new Set<Account>();
  for (const [keyId, attempts] of waiting) {
    const state = store.restoredAccount(keyId).webhookState();
    for (const { event, endpointId, attempt, dueAt, sequence } of attempts.values()) {
      const target =
        endpointId === defaultEndpoint?.endpoint.id
          ? defaultEndpoint
          : state.endpoints.get(endpointId);
      // Its endpoint was deleted (or the server-wide one is not configured now): not sent.
      if (target === undefined) continue;
      state.restoreQueued({ event, target, attempt, dueAt, sequence });
    }
  }
  for (const account of memory.allAccounts()) {
    if ((account.webhooks?.queue.size ?? 0) > 0 || account.nextSettlementAt() !== undefined) {
      watched.add(account);
    }
  }
  return [...watched];
}

/**
 * Puts a payment read back: replaces the key's payment with the same id (its latest state), or
 * adds it as the newest.
 */
function restorePayment(memory: MemoryStore, account: Account, record: PaymentRecord): void {
  const stored = account.payments.get(record.id);
  if (stored === undefined) {
    memory.insertPayment(account, record);
    return;
  }
  const before = paymentBytes(stored);
  stored.json = record.json;
  stored.token = intern(record.token);
  stored.settlesAt = record.settlesAt;
  stored.changes = record.timeline[3] ?? undefined;
  account.addBytes(paymentBytes(stored) - before);
}

/**
 * A payment that settled (or changed otherwise) after it was made PENDING keeps its settlement
 * time in the lines the store wrote of it: only a PENDING payment settles, so the time of any
 * other is dropped before the line is checked (it would be refused, and the sandbox with it).
 */
function forgetSettledTime(line: readonly unknown[]): void {
  if (line[0] !== 'p' || line.length !== 7 || line[5] === null || typeof line[3] !== 'string')
    return;
  let status: unknown;
  try {
    status = (JSON.parse(line[3]) as { status?: unknown } | null)?.status;
  } catch {
    return; // refused by the checks, naming the field
  }
  if (status !== 'PENDING' && status !== undefined) (line as unknown[])[5] = null;
}

/** The elements each change has (`i` may name a payment as its answer's body: 3 or 4). */
const LENGTHS: Readonly<Record<string, readonly number[]>> = {
  p: [7],
  'p-': [3],
  i: [3, 4],
  'i-': [3],
  f: [3],
  o: [3],
  r: [2],
  e: [4],
  'e-': [3],
  v: [3],
  q: [3],
  'q-': [3],
  l: [3],
};

/** What kind of record each change holds, as a refusal names it. */
const KINDS: Readonly<Record<string, string>> = {
  p: 'a payment',
  'p-': 'a payment removed',
  i: 'an Idempotency-Key record',
  'i-': 'an Idempotency-Key record removed',
  f: "a key's faults",
  o: "a key's clock offset",
  r: 'a reset',
  e: 'a webhook endpoint',
  'e-': 'a webhook endpoint removed',
  v: 'an event',
  q: 'a delivery attempt queued',
  'q-': 'a delivery attempt made',
  l: 'a delivery log entry',
};

const isId = (value: unknown) =>
  typeof value === 'string' && value.length > 0 && value.length <= 255;

/**
 * What is wrong with a change as read, before it is applied: its kind and length, the key id, and
 * the record it holds (`checks`); an `i` change is checked once its answer's body is in place.
 */
function checkShape(
  line: readonly unknown[],
  checks: RecordChecks,
): [string, RecordProblem] | undefined {
  const type = line[0];
  const lengths =
    typeof type === 'string' && Object.hasOwn(LENGTHS, type) ? LENGTHS[type] : undefined;
  // A kind this version does not know is refused by the switch (`default`).
  if (lengths === undefined) return undefined;
  const what = KINDS[type as string] as string;
  if (!lengths.includes(line.length)) {
    const message = `a ${type} change has ${lengths.join(' or ')} elements; this one has ${line.length}`;
    return [what, { field: 'change', message }];
  }
  if (!isKeyId(line[1])) {
    return [
      what,
      {
        field: 'key id',
        message: 'the key id must be 22 base64url characters (a hash of the API key)',
      },
    ];
  }
  const problem = checkRecord(line, checks);
  return problem === undefined ? undefined : [what, problem];
}

/** The checks of the record one change holds (not an `i` change: see `checkShape`). */
function checkRecord(line: readonly unknown[], checks: RecordChecks): RecordProblem | undefined {
  const id = (field: string) =>
    isId(line[2])
      ? undefined
      : { field, message: `${field} must be a string of 1 to 255 characters` };
  switch (line[0]) {
    case 'p':
      return checks.payment({
        id: line[2],
        json: line[3],
        token: line[4],
        settlesAt: line[5],
        timeline: line[6],
      });
    case 'p-':
      return id('payment id');
    case 'i':
      return line[3] === undefined || isId(line[3])
        ? undefined
        : {
            field: 'payment id',
            message: "the answer's payment id must be a string of 1 to 255 characters",
          };
    case 'i-':
      return id('Idempotency-Key');
    case 'f':
      return checks.faults(line[2]);
    case 'o':
      return checks.offset(line[2]);
    case 'e':
      return checks.endpoint(line[2], line[3]);
    case 'e-':
      return id('endpoint id');
    case 'v':
      return checks.event(line[2]);
    case 'q': {
      const attempt = line[2] as { endpointId?: unknown } | null;
      const problem = checks.attempt(attempt);
      if (problem !== undefined || isId(attempt?.endpointId)) return problem;
      return { field: 'endpointId', message: 'endpointId must be an endpoint id' };
    }
    case 'q-':
      return Number.isSafeInteger(line[2]) && (line[2] as number) >= 0
        ? undefined
        : { field: 'sequence', message: 'the sequence must be an integer from 0' };
    case 'l':
      return checks.delivery(line[2]);
    default:
      return undefined;
  }
}
