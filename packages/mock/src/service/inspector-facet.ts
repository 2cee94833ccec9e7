// The console inspector of one key: one snapshot of everything it shows, and the record of each request.
import type { SandboxComponents } from '@payment-service/openapi';
import { normalizeFaults } from '../shared/faults.js';
import { type RecordedEntry, recordedEntry } from '../store/request-records.js';
import { clockBody } from './clock-facet.js';
import { inspectAccount } from './inspector.js';
import type { KeySession } from './key-session.js';

/**
 * What the console's inspector shows of one key (spec: getSandboxInspector), and the request log
 * it reads.
 *
 * @example
 * (await service.inspector.get()).requests[0]?.path; // '/v1/payments'
 */
export class InspectorFacet {
  constructor(private readonly scope: KeySession) {}

  /** One snapshot of everything the inspector shows for the key (secrets masked). Creates nothing. */
  async get(): Promise<SandboxComponents['schemas']['Inspector']> {
    // The records this server sent without waiting (or held back to share a round trip) are
    // stored before it reads.
    this.scope.sandbox.store.flush?.();
    await this.scope.sandbox.pendingRecords.settled();
    const account = await this.scope.find();
    const inspected = await inspectAccount(account);
    return {
      object: 'sandbox_inspector',
      clock: clockBody(this.scope.now(account), account?.offsetSeconds ?? 0, 0),
      faults: normalizeFaults(account?.faults ?? {}),
      ...inspected,
    };
  }

  /**
   * Records a request of the key for the inspector, on the key's clock: in the account the
   * request read (its session's), else found (or opened, if the sandbox has room) now. A store
   * that holds the write back (a networked one) hands it to `pendingRecords` until stored: the
   * answer never waits for it. Skipped while `pendingRecords` is full (a slow store), or when the
   * key has no account and the sandbox no room. Cannot throw.
   */
  recordRequest(entry: Omit<RecordedEntry, 'receivedAt'>, receivedAtServer: number): void {
    const pending = this.scope.sandbox.pendingRecords;
    // A store too slow to take them: this server's records in flight are bounded, the rest skipped.
    if (pending.full) return;
    const account = this.scope.account;
    if (account === undefined) {
      pending.add(this.record(entry, receivedAtServer));
      return;
    }
    try {
      account.recordRequest(recordedEntry(entry, account.now(receivedAtServer)), pending);
    } catch {
      // A record the store could not take is skipped: the request was answered already.
    }
  }

  /** Records a request of a key whose account the request did not read; false when skipped. */
  private async record(
    entry: Omit<RecordedEntry, 'receivedAt'>,
    receivedAtServer: number,
  ): Promise<boolean> {
    try {
      const { store } = this.scope.sandbox;
      const existing = await this.scope.find();
      if (existing === undefined && !(await store.admit())) return false;
      const account = existing ?? (await this.scope.open());
      // This record is in `pendingRecords` until the write the store held back is stored.
      const held: Promise<unknown>[] = [];
      const into = { add: (write: Promise<unknown>) => held.push(write) };
      account.recordRequest(recordedEntry(entry, account.now(receivedAtServer)), into);
      await Promise.all(held);
      return true;
    } catch {
      // A record the store could not take is skipped: the request was answered already.
      return false;
    }
  }
}
