// The Hono environment of the mock: what each middleware leaves in the context for the next.

import type { AccountService } from '../service/account-service.js';
import type { IdempotentRequest } from '../service/idempotency.js';
import type { Checked } from '../shared/validation.js';
import type { Account, IdempotencyRecord, StoredResponse } from '../store/account.js';
import type { PreparedHandler } from './operations.js';

/** The context variables the mock's middleware share. */
export interface MockVariables {
  /** `req_…`, sent back as `Request-Id`. */
  requestId: string;
  /** The account service of the caller's key (set by auth). */
  service: AccountService;
  /** The parsed JSON body, undefined when there is none. */
  json: unknown;
  /** The body's text as received (for the inspector), undefined when there is none. */
  bodyText: string | undefined;
  /** The checked body bound to the operation's handler, or the field errors. */
  prepared: Checked<PreparedHandler>;
  /** Injected latency not yet spent, in ms. */
  latencyMs: number;
  /** The answer as stored for idempotent replay (set by the handler step). */
  stored: StoredResponse | undefined;
  /** The body text of the answer the mock made (for the inspector: no copy of the Response). */
  answerText: string | undefined;
  /** The problem `code` of that answer, if it is a problem (for the log and the inspector). */
  answerCode: string | undefined;
  /** The in-flight Idempotency-Key record of this request, and the account that holds it. */
  idempotency:
    | { request: IdempotentRequest; record: IdempotencyRecord; account: Account }
    | undefined;
  /** Whether the connection must be dropped instead of answered. */
  drop: boolean;
  /** Whether the client closed the connection before its request body arrived. */
  aborted: boolean;
}

/** The mock's Hono environment. */
export interface MockEnv {
  Variables: MockVariables;
}
