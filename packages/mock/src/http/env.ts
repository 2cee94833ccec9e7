// The Hono environment of the mock, and the exchange: what the mock holds about one request while it answers it.
import type { AccountService } from '../service/account-service.js';
import type { StoredResponse } from '../store/records.js';

/**
 * Everything the mock holds about one request while it answers it: the pipeline fills it in,
 * and `observe` reads it once at the end (nothing is recomputed or copied from the Response).
 */
export interface Exchange {
  /** `req_…`, sent back as `Request-Id`. */
  readonly requestId: string;
  readonly method: string;
  /** The path as sent (not decoded), without query. */
  readonly path: string;
  /** When it arrived, on the server's clock (ms epoch); undefined if the clock failed. */
  readonly receivedAt: number | undefined;
  /** performance.now() when it arrived. */
  readonly started: number;
  /** The caller's account service once authenticated: the inspector records only those. */
  service: AccountService | undefined;
  /** The request body's text as received (for the inspector), if there was one. */
  bodyText: string | undefined;
  /** The answer sent (its text is the inspector's and the idempotency record's: one string). */
  answer: StoredResponse | undefined;
  /** The connection must be dropped instead of answered (`drop_after_commit`). */
  drop: boolean;
  /** The client closed the connection before its request body arrived. */
  aborted: boolean;
}

/** The context variables of the routes observed by `observed` (the console, 404, 405). */
export interface MockVariables {
  /** `req_…`, sent back as `Request-Id`. */
  requestId: string;
  /** The request as observed so far; a route reached through `next()` shares it. */
  exchange: Exchange | undefined;
}

/** The mock's Hono environment. */
export interface MockEnv {
  Variables: MockVariables;
}
