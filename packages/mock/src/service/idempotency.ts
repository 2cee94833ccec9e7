// Idempotency-Key handling (IETF httpapi draft): store and replay, 422 on reuse, 409 in flight.
import { hash } from 'node:crypto';
import type { FieldError, ProblemInit } from '../problems.js';
import type { Account, IdempotencyRecord, StoredResponse } from '../store/account.js';
import type { AccountStore } from '../store/accounts.js';

/** The request an Idempotency-Key is used with. */
export interface IdempotentRequest {
  key: string;
  method: string;
  path: string;
  bodyHash: string;
}

/** Go on with a new in-flight record, replay a stored response, or answer a problem. */
export type IdempotencyDecision =
  | { kind: 'proceed'; record: IdempotencyRecord }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'problem'; problem: ProblemInit };

/** The longest Idempotency-Key accepted. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * Checks an `Idempotency-Key` header: 1 to 255 characters when present.
 *
 * @example
 * checkIdempotencyKey(''); // { param: 'Idempotency-Key', code: 'invalid_value', … }
 * checkIdempotencyKey('order-42'); // undefined
 */
export function checkIdempotencyKey(value: string | null): FieldError | undefined {
  if (value === null) return undefined;
  if (value.length >= 1 && value.length <= MAX_IDEMPOTENCY_KEY_LENGTH) return undefined;
  return {
    param: 'Idempotency-Key',
    code: 'invalid_value',
    message: `Idempotency-Key must be a string of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters (a UUID is recommended)`,
  };
}

/**
 * Hashes a parsed JSON body in canonical form (object keys sorted), so the same fields in another
 * order or with other whitespace count as the same body. No body hashes as the empty string.
 *
 * @example
 * hashBody({ b: 1, a: 2 }) === hashBody({ a: 2, b: 1 }); // true
 */
export function hashBody(body: unknown): string {
  const canonical = body === undefined ? '' : canonicalJson(body);
  // One-shot hash (Node ≥ 20.12): no Hash object per request.
  return hash('sha256', canonical, 'base64url');
}

/** JSON with object keys sorted, built by concatenation (no intermediate arrays per level). */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) out += ',';
      out += canonicalJson(value[index]);
    }
    return `${out}]`;
  }
  const keys = Object.keys(value).sort();
  let out = '{';
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (index > 0) out += ',';
    out += `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`;
  }
  return `${out}}`;
}

/**
 * Looks the key up and decides. On `proceed` an in-flight record is stored at once (synchronously),
 * so a concurrent request with the same key sees it and gets a 409.
 *
 * @example
 * const decision = beginIdempotentRequest(store, account, request, accountNow, serverNow, 86_400_000);
 * if (decision.kind === 'proceed') completeIdempotentRequest(store, account, decision.record, response);
 */
export function beginIdempotentRequest(
  store: AccountStore,
  account: Account,
  request: IdempotentRequest,
  accountNow: number,
  serverNow: number,
  ttlMs: number,
): IdempotencyDecision {
  store.expireIdempotencyRecords(account, accountNow);
  const existing = account.idempotencyRecords.get(request.key);
  if (existing !== undefined) {
    const differences: string[] = [];
    if (existing.method !== request.method) differences.push(`method (${existing.method})`);
    if (existing.path !== request.path) differences.push(`path (${existing.path})`);
    if (existing.bodyHash !== request.bodyHash) differences.push('body');
    if (differences.length > 0) {
      return {
        kind: 'problem',
        problem: {
          code: 'idempotency_key_reused',
          detail: `This Idempotency-Key was first used with ${existing.method} ${existing.path}; this request differs in its ${differences.join(', ')}. Use a new key for a different request.`,
        },
      };
    }
    if (existing.response === undefined) {
      return {
        kind: 'problem',
        problem: {
          code: 'idempotency_key_in_use',
          detail:
            'A request with this Idempotency-Key is still being processed. Retry after it finishes to get its response.',
        },
      };
    }
    return { kind: 'replay', response: existing.response };
  }
  const record: IdempotencyRecord = {
    ...request,
    expiresAt: accountNow + ttlMs,
    serverExpiresAt: serverNow + ttlMs,
  };
  store.addIdempotencyRecord(account, record);
  return { kind: 'proceed', record };
}

/**
 * Stores the first response of the key, for replay until the record expires.
 *
 * @example
 * completeIdempotentRequest(store, account, record, { status: 201, headers: {}, body: '{…}' });
 */
export function completeIdempotentRequest(
  store: AccountStore,
  account: Account,
  record: IdempotencyRecord,
  response: StoredResponse,
): void {
  store.completeIdempotencyRecord(account, record, response);
}

/**
 * Forgets an in-flight record whose request was not processed (so the key can be used again).
 *
 * @example
 * abandonIdempotentRequest(store, account, record);
 */
export function abandonIdempotentRequest(
  store: AccountStore,
  account: Account,
  record: IdempotencyRecord,
): void {
  store.deleteIdempotencyRecord(account, record);
}
