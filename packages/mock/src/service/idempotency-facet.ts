// The Idempotency-Keys of one key: take a key for a request (or replay, 409, 422), then store its answer or give the key back.
import type { StoredResponse } from '../store/records.js';
import {
  beginIdempotentRequest,
  decideOnHeld,
  type IdempotencyClaim,
  type IdempotencyDecision,
  type IdempotentRequest,
  newIdempotencyRecord,
} from './idempotency.js';
import type { KeySession } from './key-session.js';

/**
 * Idempotency-Key handling of one key (IETF httpapi draft): the in-flight record a request holds
 * while its handler runs, and the answer it replays after.
 *
 * @example
 * const decision = await service.idempotency.begin(request);
 * if (decision.kind === 'proceed') await service.idempotency.finish(decision, stored);
 */
export class IdempotencyFacet {
  constructor(private readonly scope: KeySession) {}

  /**
   * Looks an Idempotency-Key up (opening the account) and decides: proceed (with the account that
   * holds the new in-flight record), replay or problem.
   */
  begin(request: IdempotentRequest): Promise<IdempotencyDecision> {
    // Claimed when the request's session opened: every keyed create's path, without an async frame.
    const ahead = this.scope.sessionClaim();
    if (ahead !== undefined && ahead.claim.kind === 'claimed') {
      return Promise.resolve({
        kind: 'proceed',
        record: ahead.claim.record,
        account: ahead.account,
      });
    }
    return this.decide(request, ahead);
  }

  /** A key found held when the session opened, or not claimed with it (a fault was armed). */
  private async decide(
    request: IdempotentRequest,
    ahead: ReturnType<KeySession['sessionClaim']>,
  ): Promise<IdempotencyDecision> {
    const { sandbox } = this.scope;
    const ttlMs = sandbox.idempotencyTtlMs;
    if (ahead !== undefined && ahead.claim.kind === 'held') {
      const serverNow = sandbox.clock.now();
      const record = newIdempotencyRecord(request, ahead.account.now(serverNow), serverNow, ttlMs);
      return decideOnHeld(ahead.claim.record, record);
    }
    const account = await this.scope.open();
    return beginIdempotentRequest(
      account,
      request,
      this.scope.now(account),
      sandbox.clock.now(),
      ttlMs,
    );
  }

  /**
   * Stores the answer of an idempotent request in the account that holds its record, or forgets
   * the record when `stored` is undefined. A record its operation completed already (a create
   * stores its payment and its answer in one call) is left as it is.
   */
  async finish(claim: IdempotencyClaim, stored: StoredResponse | undefined): Promise<void> {
    const { record, account } = claim;
    if (record.response !== undefined) return;
    if (stored !== undefined) await account.completeIdempotencyRecord(record, stored);
    else await account.forgetIdempotencyRecord(record);
  }
}
