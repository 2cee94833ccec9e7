// The journaled store: the memory store's changes as journal lines, and accounts read back claimed by their API keys.
import { describe, expect, it } from 'vitest';
import { type JournalLine, keyIdOf, type StoreJournal } from './journal.js';
import { JournaledStore } from './journaled-store.js';

const limits = {
  maxPaymentsPerKey: 2,
  maxPaymentsTotal: 100,
  maxIdempotencyRecordsPerKey: 10,
  maxIdempotencyRecordsTotal: 100,
  maxAccounts: 10,
  memoryBudgetBytes: 1 << 30,
  keyMemoryBudgetBytes: 1 << 26,
  idleMs: 3_600_000,
};
const KEY = 'sk_test_journaled_store_1';

/** A journal that keeps its lines, recording from the start unless told otherwise. */
function journalOf(recording = true): StoreJournal & { lines: JournalLine[]; recording: boolean } {
  const lines: JournalLine[] = [];
  return {
    lines,
    recording,
    write(line) {
      lines.push(line);
    },
  };
}

const record = (id: string) => ({
  id,
  json: `{"id":"${id}"}`,
  token: 'tok_test_success',
  settlesAt: undefined,
  timeline: [0, 'SUCCEEDED', 1, null] as [number, 'SUCCEEDED', number, null],
});

describe('JournaledStore', () => {
  it('writes each change of the memory store in the order it was made, under the key id', () => {
    const journal = journalOf();
    const store = new JournaledStore(limits, {}, journal);
    const account = store.open(KEY);
    for (const id of ['pay_1', 'pay_2', 'pay_3']) account.createPayment(record(id));
    account.setOffset(60);
    store.reset(KEY);
    const keyId = keyIdOf(KEY);
    expect(journal.lines.map((line) => line.slice(0, 3))).toEqual([
      ['p', keyId, 'pay_1'],
      ['p', keyId, 'pay_2'],
      // The oldest is forgotten before the new payment is written: a replay does the same.
      ['p-', keyId, 'pay_1'],
      ['p', keyId, 'pay_3'],
      ['o', keyId, 60],
      ['r', keyId],
    ]);
    // A closed account's late changes are not written.
    account.setOffset(120);
    expect(journal.lines).toHaveLength(6);
    expect(JSON.stringify(journal.lines)).not.toContain(KEY);
  });

  it('builds no line while the journal is read back', () => {
    const journal = journalOf(false);
    const store = new JournaledStore(limits, {}, journal);
    const account = store.restoredAccount(keyIdOf(KEY));
    account.createPayment(record('pay_1'));
    account.webhookState().rememberEvent({ id: 'evt_1', type: 'payment.succeeded', body: '{}' });
    expect(journal.lines).toEqual([]);
  });

  it('hands an account read back to the first request of its API key: a read, a write or a reset', () => {
    for (const first of ['find', 'open', 'reset'] as const) {
      const journal = journalOf(false);
      const store = new JournaledStore(limits, {}, journal);
      store.restoredAccount(keyIdOf(KEY)).createPayment(record('pay_1'));
      expect(store.find('sk_test_another_key_00')).toBeUndefined();
      journal.recording = true;
      if (first === 'reset') {
        expect(store.reset(KEY)).toBe(1);
        expect(journal.lines).toEqual([['r', keyIdOf(KEY)]]);
        expect(store.find(KEY)).toBeUndefined();
      } else {
        expect(store[first](KEY)?.payment('pay_1')?.id).toBe('pay_1');
        expect(store.memory.holds(KEY)).toBe(true);
      }
    }
  });

  it('forgets an account read back that is reset before its key comes', () => {
    const store = new JournaledStore(limits, {}, journalOf(false));
    store.restoredAccount(keyIdOf(KEY)).createPayment(record('pay_1'));
    store.resetRestored(keyIdOf(KEY));
    expect(store.find(KEY)).toBeUndefined();
    expect(store.memory.stats().accounts).toBe(0);
  });
});
