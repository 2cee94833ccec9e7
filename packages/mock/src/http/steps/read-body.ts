// Step: the body. Read once (media type, size, JSON) and kept on the request; its problem is answered by `refuseInvalid`.
import { readJsonBody } from '../body.js';
import type { StepFactory } from './state.js';

/**
 * Reads the request body once (415, 413 declared or received, 400 bad JSON: see
 * `readJsonBody`) into `request.read`, answering nothing: the key's faults still answer before
 * a body's problems on a store that reads ahead (the body is read before them there).
 *
 * @example
 * composeSteps([readBody(65_536), validateRequest(shape), refuseInvalid], operate);
 */
export function readBody(maxBodyBytes: number): StepFactory {
  return (next) => async (c, request) => {
    request.read = await readJsonBody(c.req.raw, maxBodyBytes);
    return next(c, request);
  };
}
