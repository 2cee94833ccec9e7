// The console inspector of one key: one snapshot of everything it shows, and the record of each request.
import type { SandboxComponents } from '@payment-service/openapi';
import { normalizeFaults } from '../shared/faults.js';
import { type RecordedEntry, recordedEntry } from '../store/request-log.js';
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
   * Records a request of the key for the inspector, on the key's clock. Skipped (returns false)
   * when the key has no account and the sandbox has no room for a new one. Cannot throw.
   */
  async recordRequest(
    entry: Omit<RecordedEntry, 'receivedAt'>,
    receivedAtServer: number,
  ): Promise<boolean> {
    try {
      const { store } = this.scope.sandbox;
      const existing = await this.scope.find();
      if (existing === undefined && !(await store.admit())) return false;
      const account = existing ?? (await this.scope.open());
      await account.recordRequest(recordedEntry(entry, account.now(receivedAtServer)));
      return true;
    } catch {
      // A record the store could not take is skipped: the request was answered already.
      return false;
    }
  }
}
