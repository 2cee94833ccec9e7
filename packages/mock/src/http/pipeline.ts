// One pipeline per spec operation, composed once at start-up from the named steps in steps/: the list below is the order they run in.
import type { Context } from 'hono';
import type { AccountService, EventDelivery } from '../service/account-service.js';
import type { ProblemInit } from '../shared/problems.js';
import type { Checked } from '../shared/validation.js';
import type { MockEnv } from './env.js';
import type { Observer } from './exchange.js';
import type { PreparedHandler } from './operations.js';
import { authenticateKey } from './steps/auth.js';
import { applyFaults, spendLatency } from './steps/faults.js';
import { reclaimKey, takeIdempotencyKey } from './steps/idempotency.js';
import { observeRequest } from './steps/observe.js';
import { operate } from './steps/operate.js';
import { checkPathId } from './steps/path-id.js';
import { readBody } from './steps/read-body.js';
import { refuseInvalid } from './steps/refuse.js';
import { closeSession, openAccount, readAhead } from './steps/session.js';
import { settleDue } from './steps/settle.js';
import { type Answering, composeSteps } from './steps/state.js';
import { validateRequest } from './steps/validate.js';

/** What every operation's pipeline needs from the server. */
export interface PipelineContext {
  observer: Observer;
  /** The account service of an authenticated key. */
  serviceFor(apiKey: string): AccountService;
  maxBodyBytes: number;
  sleep(ms: number): Promise<void>;
  /** Hands events to the webhook dispatcher (queued once it resolves; never rejects). */
  deliver(events: readonly EventDelivery[]): Promise<void>;
  /** Writes the changes made so far to a durable store: the problem to answer if it cannot. */
  persist(): ProblemInit | undefined;
}

/** The shape of one operation, settled at start-up: which steps its pipeline has. */
export interface OperationShape {
  /**
   * A /v1 operation: the key's faults apply, due payments settle first, and a POST takes an
   * `Idempotency-Key` (the sandbox controls have none of these).
   */
  api: boolean;
  /** Whether the operation reads a body (the body read and its check). */
  readsBody: boolean;
  /**
   * Whether it answers without a key (the spec lists no security among its options): a request
   * without `Authorization` is served; a header sent is still checked.
   */
  keyless?: boolean;
  /** Whether its path has an `{id}`. */
  hasId: boolean;
  /** What that `{id}` names ('payment', 'webhook endpoint', 'event'), for the answer to an id of no possible form. */
  idNames?: string;
  /**
   * Whether that `{id}` names a payment the handler reads (/v1/payments/{id}…): a store that
   * reads ahead reads it with the account.
   */
  paymentId: boolean;
  /** POST: a new change, so the Idempotency-Key step and the store's capacity check. */
  post: boolean;
  /** Checks the parsed body and binds it to the operation's handler. */
  prepare(body: unknown): Checked<PreparedHandler>;
}

/**
 * Builds the one handler of an operation from its steps, each present only when the operation
 * needs it: observation (first and last), the session's end, auth, the path's `{id}`, the
 * account and, on /v1, its store session, the key's faults (/v1), the body, validation, the
 * answer to an invalid request, idempotency (/v1 POSTs), the latency, due settlements (/v1),
 * and the operation with its answer. A /v1 POST reads and checks its body before its session
 * opens, so the session claims its Idempotency-Key in the store's first round trip; the faults
 * still answer before the body's problems. Composed here, once: nothing is built per request.
 *
 * @example
 * app.post('/v1/payments', operationPipeline({ api: true, readsBody: true, hasId: false, paymentId: false, post: true, prepare }, context));
 */
export function operationPipeline(
  shape: OperationShape,
  context: PipelineContext,
): (c: Context<MockEnv>) => Answering {
  const { api, post } = shape;
  const takesKey = api && post;
  const body = shape.readsBody && readBody(context.maxBodyBytes);
  const validate = validateRequest(shape.prepare, takesKey);
  const session = api && readAhead(shape);
  const faults = api && applyFaults(context.sleep);
  return observeRequest(
    context.observer,
    composeSteps(
      [
        closeSession(context.persist),
        authenticateKey(shape.keyless === true),
        shape.hasId && checkPathId(shape.idNames ?? 'object'),
        openAccount(context.serviceFor),
        ...(post ? [body, validate, session, faults] : [session, faults, body, validate]),
        refuseInvalid,
        takesKey && takeIdempotencyKey,
        api && spendLatency(context.sleep),
        api && settleDue(context.deliver),
        takesKey && reclaimKey,
      ],
      operate(shape.hasId, context.deliver),
    ),
  );
}
