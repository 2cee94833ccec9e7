// The memory store's session of one request: everything asked is read (and claimed) at once, in the same tick.

import { NO_CLAIM, ReadSession } from '../read-session.js';
import type { IdempotencyRecord } from '../records.js';
import type { OpenClaim, SessionAsk, StoreSession } from '../store.js';
import type { Account } from './account.js';
import { handleOf, type MemoryCore } from './memory-seam.js';

/**
 * Opens a request's session on the memory store at once: finds the key's account (opens it for a
 * write), claims the Idempotency-Key when no fault is armed, reads the payment asked for.
 *
 * @example
 * const session = memorySession(store, 'sk_test_12345678', { write: false, serverNow: Date.now(), paymentId: 'pay_1' }, admit);
 */
export function memorySession(
  store: Pick<MemoryCore, 'find' | 'open'>,
  apiKey: string,
  ask: SessionAsk,
  /** The store's `admit`, answered as a promise (one function per store, not per session). */
  admit: () => Promise<boolean>,
): StoreSession {
  const account = ask.write ? store.open(apiKey) : store.find(apiKey);
  let claim: OpenClaim = NO_CLAIM;
  if (account !== undefined && ask.claim !== undefined && noFaultArmed(account)) {
    const accountNow = account.now(ask.serverNow);
    const record: IdempotencyRecord = ask.claim(accountNow);
    const held = account.claimIdempotencyKey(record, accountNow);
    claim = held === undefined ? { kind: 'claimed', record } : { kind: 'held', record: held };
  }
  const { paymentId } = ask;
  return new ReadSession({
    account: account === undefined ? undefined : handleOf(account),
    claim,
    paymentId,
    payment: paymentId === undefined ? undefined : account?.payment(paymentId),
    settlesNext: account?.nextSettlementAt(),
    admit,
  });
}

/** Whether the key has no fault armed (a claim waits for the faults to answer first). */
function noFaultArmed(account: Account): boolean {
  for (const _ in account.faults) return false;
  return true;
}
