// Rebuilds the store from a journal: each change applied in order, later lines replacing earlier ones.
import type { Account } from '../account.js';
import type { MemoryStore } from '../accounts.js';
import type { JournalAttempt, JournalLine } from '../journal.js';
import type { IdempotencyRecord } from '../records.js';
import type { EndpointRecord } from '../webhook-state.js';
import { DataDirectoryError } from './lock.js';

/** A journal's reader: hands each change, in order, to `apply`. */
export type JournalSource = (apply: (line: JournalLine) => void) => unknown;

/**
 * Applies a journal's changes, as they are read, to an empty store (which must not write them
 * again while it does), then queues the attempts that were never made. Returns the accounts with attempts queued or
 * payments to settle, for the dispatcher to watch: what fell due while the sandbox was down
 * goes out at once.
 *
 * @example
 * const accounts = replayJournal(store, (apply) => directory.replay(apply), undefined);
 */
export function replayJournal(
  store: MemoryStore,
  source: JournalSource,
  defaultEndpoint: EndpointRecord | undefined,
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
  source((line) => {
    const keyId = line[1];
    switch (line[0]) {
      case 'p': {
        const [, , id, json, token, settlesAt, timeline] = line;
        const account = accountOf(keyId);
        store.restorePayment(account, {
          id,
          json,
          token,
          settlesAt: settlesAt ?? undefined,
          timeline,
        });
        break;
      }
      case 'p-':
        store.forgetPayment(accountOf(keyId), line[2]);
        break;
      case 'i': {
        const account = accountOf(keyId);
        const data = line[2];
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
        if (existing !== undefined) store.deleteIdempotencyRecord(account, existing);
        store.addIdempotencyRecord(account, record);
        if (response !== undefined) {
          if (line[3] !== undefined) response.body = paymentBody(account, line[3]);
          store.completeIdempotencyRecord(account, record, response);
        }
        break;
      }
      case 'i-': {
        const account = accountOf(keyId);
        const existing = account.idempotencyRecords.get(line[2]);
        if (existing !== undefined) store.deleteIdempotencyRecord(account, existing);
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
          .saveEndpoint({ endpoint: line[2], key: Buffer.from(line[3], 'base64') });
        break;
      case 'e-':
        accountOf(keyId).webhookState().deleteEndpoint(line[2]);
        break;
      case 'v':
        accountOf(keyId).webhookState().rememberEvent(line[2]);
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
  for (const account of store.allAccounts()) {
    if ((account.webhooks?.queue.size ?? 0) > 0 || account.nextSettlementAt() !== undefined) {
      watched.add(account);
    }
  }
  return [...watched];
}

/**
 * The text of the payment a replayed answer names: the stored payment as it is at this point of
 * the journal (one string in memory, as before the restart).
 */
function paymentBody(account: Account, id: string): string {
  const json = account.payments.get(id)?.json;
  if (json === undefined) {
    throw new DataDirectoryError(
      `an answer's body names payment ${id} before that payment is in the journal`,
    );
  }
  return json;
}
