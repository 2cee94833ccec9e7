// The data directory's store: the memory store, wrapped, with each change it commits written to the journal.
import type { StoreLimits } from '../limits.js';
import type { Account } from '../memory/account.js';
import type { MemoryChanges, WebhookChanges } from '../memory/changes.js';
import type { MemoryCore } from '../memory/memory-seam.js';
import { MemoryStore } from '../memory/memory-store.js';
import { type JournalLine, keyIdOf, recordLine, type StoreJournal } from './journal.js';

/** Marks the name an account read back from the journal is held under until its API key comes. */
const RESTORED = '\u0000';

/**
 * The memory store, kept in a journal: every change the memory store commits is written as a
 * journal line (keys named by `keyIdOf`, never by their API key), in the order it was made.
 * Accounts read back from the journal are held under their key id until a request of their API
 * key comes (`find`, `open`, `reset`, a session). The memory store knows nothing of the journal.
 *
 * @example
 * const store = new JournaledStore(limits, {}, DataDirectory.open('/var/lib/sandbox'));
 * const watched = replayJournal(store, (apply) => directory.replay(apply), undefined, checks);
 */
export class JournaledStore implements MemoryCore {
  /** The store that holds the data. */
  readonly memory: MemoryStore;
  /** Each account's key id (a hash of its API key): the name its lines carry. */
  private readonly keyIds = new WeakMap<Account, string>();
  /** Accounts read back whose API key has not come since, by key id. */
  private readonly unclaimed = new Map<string, Account>();

  constructor(
    limits: StoreLimits,
    context: { log?(line: string): void },
    private readonly journal: StoreJournal,
  ) {
    this.memory = new MemoryStore(limits, { log: context.log, changes: this.lines() });
  }

  find(apiKey: string): Account | undefined {
    if (this.unclaimed.size > 0) this.claim(apiKey);
    return this.memory.find(apiKey);
  }

  open(apiKey: string): Account {
    if (this.unclaimed.size > 0) this.claim(apiKey);
    return this.memory.open(apiKey);
  }

  admit(): boolean {
    return this.memory.admit();
  }

  reset(apiKey: string): number {
    if (this.unclaimed.size > 0) this.claim(apiKey);
    return this.memory.reset(apiKey);
  }

  release(account: Account): boolean {
    return this.memory.release(account);
  }

  sweep(serverNow: number): void {
    this.memory.sweep(serverNow);
  }

  /** The key id an account's lines carry ('' for none of this store's). */
  keyIdOf(account: Account): string {
    return this.keyIds.get(account) ?? '';
  }

  /**
   * The account of a key read back from the journal, held under its key id until a request of
   * its API key comes: created empty when none is there yet. For the journal's replay.
   */
  restoredAccount(keyId: string): Account {
    const account = this.memory.hold(RESTORED + keyId);
    this.unclaimed.set(keyId, account);
    return account;
  }

  /** Deletes everything of a key read back from the journal, as `reset` does. For the replay. */
  resetRestored(keyId: string): void {
    this.memory.reset(RESTORED + keyId);
  }

  /** Moves an account read back from the journal under the API key whose id it has. */
  private claim(apiKey: string): void {
    if (this.memory.holds(apiKey)) return;
    const keyId = keyIdOf(apiKey);
    if (!this.unclaimed.has(keyId)) return;
    this.unclaimed.delete(keyId);
    this.memory.rename(RESTORED + keyId, apiKey);
  }

  /** Whether a change is written: not while the journal is read back (none is built then). */
  private get recording(): boolean {
    return this.journal.recording !== false;
  }

  /** The memory store's changes, as journal lines (see `JournalLine`). */
  private lines(): MemoryChanges {
    const write = (line: JournalLine) => this.journal.write(line);
    return {
      accountOpened: (account, key) => {
        this.keyIds.set(account, key.startsWith(RESTORED) ? key.slice(1) : keyIdOf(key));
      },
      paymentStored: (account, stored) => {
        if (!this.recording) return;
        const { id, json, token, settlesAt } = stored;
        const keyId = this.keyIdOf(account);
        write(['p', keyId, id, json, token, settlesAt ?? null, stored.packedTimeline()]);
      },
      paymentForgotten: (account, id) => {
        if (this.recording) write(['p-', this.keyIdOf(account), id]);
      },
      recordAnswered: (account, record) => {
        if (!this.recording) return;
        write(recordLine(this.keyIdOf(account), record, (id) => account.payments.get(id)?.json));
      },
      recordForgotten: (account, record) => {
        // Only an answered record was written.
        if (record.response !== undefined && this.recording) {
          write(['i-', this.keyIdOf(account), record.key]);
        }
      },
      faultsSet: (account, faults) => {
        if (this.recording) write(['f', this.keyIdOf(account), faults]);
      },
      offsetSet: (account, seconds) => {
        if (this.recording) write(['o', this.keyIdOf(account), seconds]);
      },
      accountReset: (account) => {
        if (this.recording) write(['r', this.keyIdOf(account)]);
      },
      accountDropped: (account) => {
        const keyId = this.keyIds.get(account);
        if (keyId !== undefined && this.unclaimed.get(keyId) === account)
          this.unclaimed.delete(keyId);
      },
      webhooksOf: (account) => this.webhookLines(account),
    };
  }

  /** One key's webhook changes, as journal lines (nothing once its account is closed). */
  private webhookLines(account: Account): WebhookChanges {
    const write = (line: JournalLine) => {
      if (!account.closed) this.journal.write(line);
    };
    const keyId = () => this.keyIdOf(account);
    return {
      endpointSaved: ({ endpoint, key }) => {
        if (this.recording) write(['e', keyId(), endpoint, Buffer.from(key).toString('base64')]);
      },
      endpointDeleted: (id) => {
        if (this.recording) write(['e-', keyId(), id]);
      },
      eventRemembered: (event) => {
        if (this.recording) write(['v', keyId(), event]);
      },
      attemptQueued: ({ event, target, attempt, dueAt, sequence }) => {
        if (!this.recording) return;
        const endpointId = target.endpoint.id;
        write(['q', keyId(), { event, endpointId, attempt, dueAt, sequence }]);
      },
      attemptFinished: (delivery) => {
        if (this.recording) write(['q-', keyId(), delivery.sequence]);
      },
      deliveryLogged: (entry) => {
        if (this.recording) write(['l', keyId(), entry]);
      },
    };
  }
}
