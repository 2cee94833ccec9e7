// Step: validation. Checks the body as read against the operation's schema (binding it to the handler) and the Idempotency-Key header.
import { checkIdempotencyKey } from '../../service/idempotency.js';
import type { Checked } from '../../shared/validation.js';
import type { PreparedHandler } from '../operations.js';
import type { StepFactory } from './state.js';

/**
 * Checks the body read (`readBody`; none for an operation that reads no body) and, when
 * `takesKey` (a /v1 POST), the `Idempotency-Key` header, answering nothing: `refuseInvalid`
 * answers every problem at once. An unreadable body is not checked.
 *
 * @example
 * composeSteps([readBody(65_536), validateRequest(route.prepare, true), refuseInvalid], operate);
 */
export function validateRequest(
  prepare: (body: unknown) => Checked<PreparedHandler>,
  takesKey: boolean,
): StepFactory {
  return (next) => (c, request) => {
    const read = request.read;
    if (read !== undefined && !read.ok) return next(c, request);
    request.prepared = prepare(read?.body);
    if (takesKey) {
      const key = c.req.header('idempotency-key');
      request.idempotencyKey = key;
      request.keyError = checkIdempotencyKey(key ?? null);
    }
    return next(c, request);
  };
}
