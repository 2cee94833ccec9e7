// What a networked store's failures become: a typed "store unavailable" the service answers 503 with.

import { StoreUnavailableError } from '../store.js';
import { SCRIPT_CODES } from './scripts.js';

export { STORE_RETRY_AFTER_SECONDS, StoreUnavailableError } from '../store.js';

/**
 * The store holds data of another format version (or not ours) under the prefix: refused at
 * start; met while running (another version took the prefix over), a request answers `503
 * store_unavailable` and the error is logged.
 */
export class StoreFormatError extends StoreUnavailableError {
  override readonly name: string = 'StoreFormatError';
}

/**
 * The store answered what no script of the sandbox returns (a wrong type, an error nobody
 * raised): something between, or not a Valkey/Redis server. The connection is dropped and made
 * again; the request answers `503 store_unavailable`, and the error is logged.
 */
export class StoreReplyError extends StoreUnavailableError {
  override readonly name: string = 'StoreReplyError';
}

/** Replies of a server that is up but cannot serve now (loading, failing over, busy with a script). */
const TRANSIENT_REPLIES = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|NOREPLICAS)\b/;

/**
 * The error a store call throws for `error`, a failure of the client: connection and timeout
 * failures and transient server replies become `StoreUnavailableError` (described by `where`,
 * which must not hold a password); a script's own refusal of another format becomes
 * `StoreFormatError`; anything else (a bug) is returned as is.
 *
 * @example
 * storeError(new Error('Connection is closed.'), 'redis://cache:6379') instanceof StoreUnavailableError; // true
 */
export function storeError(error: unknown, where: string): Error {
  if (error instanceof StoreUnavailableError || error instanceof StoreFormatError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const isReply = error instanceof Error && error.name === 'ReplyError';
  const refused = message.indexOf(SCRIPT_CODES.FORMAT_REFUSED);
  if (isReply && refused !== -1) {
    return new StoreFormatError(
      message
        .slice(refused + SCRIPT_CODES.FORMAT_REFUSED.length)
        .trimStart()
        .replace(/\s*script:.*$/s, ''),
    );
  }
  if (isReply && !TRANSIENT_REPLIES.test(message)) return error as Error;
  return new StoreUnavailableError(`the store at ${where} is unavailable: ${message}`, {
    cause: error,
  });
}
