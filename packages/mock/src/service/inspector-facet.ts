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
 * service.inspector.get().requests[0]?.path; // '/v1/payments'
 */
export class InspectorFacet {
  constructor(private readonly scope: KeyScope) {}

  /** One snapshot of everything the inspector shows for the key (secrets masked). Creates nothing. */
  get(): SandboxComponents['schemas']['Inspector'] {
    const account = this.scope.find();
    return {
      object: 'sandbox_inspector',
      clock: clockBody(this.scope.now(account), account?.offsetSeconds ?? 0, 0),
      faults: normalizeFaults(account?.faults ?? {}),
      ...inspectAccount(account),
    };
  }

  /**
   * Records a request of the key for the inspector, on the key's clock. Skipped (returns false)
   * when the key has no account and the sandbox has no room for a new one. Cannot throw.
   */
  recordRequest(entry: Omit<RecordedEntry, 'receivedAt'>, receivedAtServer: number): boolean {
    const { store } = this.scope.sandbox;
    const existing = this.scope.find();
    if (existing === undefined && !store.admit()) return false;
    const account = existing ?? this.scope.open();
    account.recordRequest(recordedEntry(entry, account.now(receivedAtServer)));
    return true;
  }
}
