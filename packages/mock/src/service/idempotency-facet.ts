// The Idempotency-Keys of one key: take a key for a request (or replay, 409, 422), then store its answer or give the key back.
import type { IdempotencyRecord, StoredResponse } from '../store/records.js';
import {
  beginIdempotentRequest,
  type IdempotencyDecision,
  type IdempotentRequest,
} from './idempotency.js';
import type { KeyScope } from './key-scope.js';

/**
 * Idempotency-Key handling of one key (IETF httpapi draft): the in-flight record a request holds
 * while its handler runs, and the answer it replays after.
 *
 * @example
 * const decision = service.idempotency.begin(request);
 * if (decision.kind === 'proceed') service.idempotency.finish(decision.record, stored);
 */
export class IdempotencyFacet {
  constructor(private readonly scope: KeyScope) {}

  /** Looks an Idempotency-Key up (opening the account) and decides: proceed, replay or problem. */
  begin(request: IdempotentRequest): IdempotencyDecision {
    const { sandbox } = this.scope;
    const account = this.scope.open();
    const ttlMs = sandbox.idempotencyTtlMs;
    return beginIdempotentRequest(
      account,
      request,
      this.scope.now(account),
      sandbox.clock.now(),
      ttlMs,
    );
  }

  /**
   * Stores the answer of an idempotent request, or forgets the record when `stored` is
   * undefined. A record its operation completed already (a create stores its payment and its
   * answer in one call) is left as it is.
   */
  finish(record: IdempotencyRecord, stored: StoredResponse | undefined): void {
    if (record.response !== undefined) return;
    const account = this.scope.find();
    if (account === undefined) return;
    if (stored !== undefined) account.completeIdempotencyRecord(record, stored);
    else account.forgetIdempotencyRecord(record);
  }
}
