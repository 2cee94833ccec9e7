// The console inspector of one key: one snapshot of everything it shows, and the record of each request.
import type { SandboxComponents } from '@payment-service/openapi';
import { maybeSync, wait } from '../shared/awaitable.js';
import { normalizeFaults } from '../shared/faults.js';
import { type RecordedEntry, recordedEntry } from '../store/request-records.js';
import type { AccountStore, Awaitable } from '../store/store.js';
import { clockBody } from './clock-facet.js';
import { inspectAccount } from './inspector.js';
import type { KeyScope } from './key-scope.js';

/**
 * What the console's inspector shows of one key (spec: getSandboxInspector), and the request log
 * it reads.
 *
 * @example
 * (await service.inspector.get()).requests[0]?.path; // '/v1/payments'
 */
export class InspectorFacet {
  constructor(private readonly scope: KeyScope) {}

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
   * Records a request of the key for the inspector, on the key's clock: at once when the store
   * answers at once; else sent without waiting (the request was answered already), kept in
   * `pendingRecords` until stored. Skipped when the key has no account and the sandbox has no
   * room for a new one, or while `pendingRecords` is full (a slow store). Cannot throw.
   */
  recordRequest(entry: Omit<RecordedEntry, 'receivedAt'>, receivedAtServer: number): void {
    // A store too slow to take them: this server's records in flight are bounded, the rest skipped.
    if (this.scope.sandbox.pendingRecords.full) return;
    let found: Awaitable<AccountStore | undefined>;
    try {
      found = this.scope.find();
      // Every request is recorded: at once, allocating nothing, when the store answers at once.
      if (found !== undefined && !(found instanceof Promise)) {
        const recorded = found.recordRequest(recordedEntry(entry, found.now(receivedAtServer)));
        if (recorded instanceof Promise) this.scope.sandbox.pendingRecords.add(recorded);
        return;
      }
    } catch {
      return;
    }
    const recording = maybeSync(() => this.record(found, entry, receivedAtServer));
    if (recording instanceof Promise) this.scope.sandbox.pendingRecords.add(recording);
  }

  private *record(
    found: Awaitable<AccountStore | undefined>,
    entry: Omit<RecordedEntry, 'receivedAt'>,
    receivedAtServer: number,
  ): Generator<unknown, boolean, unknown> {
    try {
      const { store } = this.scope.sandbox;
      const existing = yield* wait(found);
      if (existing === undefined && !(yield* wait(store.admit()))) return false;
      const account = existing ?? (yield* wait(this.scope.open()));
      yield* wait(account.recordRequest(recordedEntry(entry, account.now(receivedAtServer))));
      return true;
    } catch {
      // A record the store could not take is skipped: the request was answered already.
      return false;
    }
  }
}
