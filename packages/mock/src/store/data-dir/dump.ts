// The whole store as journal changes: what a compaction writes.
import type { Account } from '../memory/account.js';
import type { QueuedDelivery } from '../webhook-records.js';
import { type JournalLine, recordLine } from './journal.js';
import type { JournaledStore } from './journaled-store.js';

/**
 * Every change that rebuilds `store` as it is now, key by key: clock offset, faults, payments
 * (oldest first), idempotency records with answers, endpoints, events, the delivery log, and
 * the attempts queued or in flight.
 *
 * @example
 * for (const line of dumpStore(store)) write(line);
 */
export function* dumpStore(store: JournaledStore): IterableIterator<JournalLine> {
  for (const account of store.memory.allAccounts()) {
    if (!account.closed) yield* dumpAccount(account, store.keyIdOf(account));
  }
}

function* dumpAccount(account: Account, id: string): IterableIterator<JournalLine> {
  if (account.offsetSeconds !== 0) yield ['o', id, account.offsetSeconds];
  if (Object.keys(account.faults).length > 0) yield ['f', id, account.faults];
  for (const stored of account.storedPayments()) {
    const { json, token, settlesAt } = stored;
    yield ['p', id, stored.id, json, token, settlesAt ?? null, stored.packedTimeline()];
  }
  for (const record of account.idempotencyRecords.values()) {
    if (record.response === undefined) continue;
    yield recordLine(id, record, (paymentId) => account.payments.get(paymentId)?.json);
  }
  const webhooks = account.webhooks;
  if (webhooks === undefined) return;
  for (const { endpoint, key } of webhooks.endpoints.values()) {
    yield ['e', id, endpoint, Buffer.from(key).toString('base64')];
  }
  for (const event of webhooks.events.values()) yield ['v', id, event];
  for (const entry of webhooks.log) yield ['l', id, entry];
  const attempts: QueuedDelivery[] = [...webhooks.taken, ...webhooks.queue.items()];
  for (const { event, target, attempt, dueAt, sequence } of attempts) {
    yield ['q', id, { event, endpointId: target.endpoint.id, attempt, dueAt, sequence }];
  }
}
