// Step: idempotency (/v1 POSTs). Replays a key's stored answer or claims the key (with the sandbox's room) around the operation; gives it back when nothing was done.
import type { Context } from 'hono';
import type { AccountService } from '../../service/account-service.js';
import type { IdempotencyClaim, IdempotentRequest } from '../../service/idempotency.js';
import type { ProblemInit } from '../../shared/problems.js';
import type { MockEnv } from '../env.js';
import { answerProblem, answerWith } from '../exchange.js';
import type { RequestState, Step, StepFactory } from './state.js';

/**
 * The request as its Idempotency-Key record sees it (built once, kept on the request), or
 * undefined when no `Idempotency-Key` was sent.
 *
 * @example
 * const keyed = idempotentRequest(request); // { key, method, path, bodyText, body } | undefined
 */
export function idempotentRequest(request: RequestState): IdempotentRequest | undefined {
  const key = request.idempotencyKey;
  if (key === undefined) return undefined;
  if (request.keyRequest !== undefined) return request.keyRequest;
  const read = request.read;
  request.keyRequest = {
    key,
    method: request.method,
    path: request.path,
    bodyText: read?.text,
    body: read?.ok === true ? read.body : undefined,
  };
  return request.keyRequest;
}

/**
 * A /v1 POST's Idempotency-Key and the sandbox's room. Without the header: `503 sandbox_full`
 * when there is no room (the account released, as after an answer). With it: a stored answer is replayed (`Idempotent-Replayed: true`, and
 * an armed `drop_after_commit` drops it), a key in flight or reused with another body is
 * refused, else the key is claimed (and given back at once if there is no room). The claim is
 * held while the steps after run; if they throw, or answer before completing it, the key is
 * free again. After the answer: the drop fault is taken and the account released. What follows
 * a change never throws.
 *
 * @example
 * composeSteps([refuseInvalid, takeIdempotencyKey], operate);
 */
export const takeIdempotencyKey: StepFactory = (next) => async (c, request) => {
  const service = request.account();
  const keyed = idempotentRequest(request);
  if (keyed === undefined) {
    const full = await service.checkCapacity();
    if (full !== undefined) return refuseFull(request, service, full);
  } else {
    const decision = await service.idempotency.begin(keyed);
    if (decision.kind === 'problem') return answerProblem(request, decision.problem);
    if (decision.kind === 'replay') {
      request.drop = await takeDrop(service);
      return answerWith(request, decision.response, true);
    }
    let full: ProblemInit | undefined;
    try {
      full = await service.checkCapacity();
    } catch (error) {
      await giveBack(service, decision);
      throw error;
    }
    if (full !== undefined) {
      // Nothing was done: the key is free again for the retry that Retry-After invites.
      await giveBack(service, decision);
      return refuseFull(request, service, full);
    }
    request.claim = decision;
  }
  let failed = true;
  try {
    const response = await next(c, request);
    failed = false;
    return response;
  } finally {
    // What follows a change never throws: a store that fails here costs the drop fault or the
    // account's release, never the answer.
    const claim = request.claim;
    if (claim !== undefined && !request.claimFinished) {
      // The operation threw, or never ran: the key is free again.
      await giveBack(service, claim);
    }
    if (!failed && service.faults.mayDrop()) request.drop = await takeDrop(service);
    await release(service);
  }
};

/**
 * Answers `503 sandbox_full`: nothing was done, so the account the request's session opened (a
 * write opens it) goes again if it holds nothing; a full sandbox keeps no empty account per key
 * it refused.
 */
async function refuseFull(
  request: RequestState,
  service: AccountService,
  full: ProblemInit,
): Promise<Response> {
  await release(service);
  return answerProblem(request, full);
}

/** Forgets the key's account if it holds nothing; a store that fails here costs nothing more. */
function release(service: AccountService): Promise<void> {
  // Released on a later request of the key if the store fails now.
  try {
    return service.release().catch(ignore);
  } catch {
    return RELEASED;
  }
}

const RELEASED: Promise<void> = Promise.resolve();
const ignore = (): void => {};

/**
 * The key was reset while this request waited (its latency fault): its record went with the old
 * account, so the key is taken again on the new one, which may now replay or refuse. (The
 * operation changes the account that holds the record, so a reset after this takes both or
 * neither: no payment without its record.)
 *
 * @example
 * composeSteps([takeIdempotencyKey, spendLatency(sleep), settleDue(deliver), reclaimKey], operate);
 */
export const reclaimKey: StepFactory = (next) => (c, request) => {
  const claim = request.claim;
  if (claim === undefined || !claim.account.closed) return next(c, request);
  return reclaimed(next, c, request);
};

async function reclaimed(
  next: Step,
  c: Context<MockEnv>,
  request: RequestState,
): Promise<Response> {
  const service = request.service;
  const keyed = request.keyRequest;
  if (service === undefined || keyed === undefined) throw new Error('unreachable: a key claimed');
  const decision = await service.idempotency.begin(keyed);
  if (decision.kind === 'problem') return answerProblem(request, decision.problem);
  if (decision.kind === 'replay') return answerWith(request, decision.response, true);
  request.claim = decision;
  return next(c, request);
}

/** Gives an in-flight Idempotency-Key back (nothing was done); a store failure keeps it until it expires. */
async function giveBack(service: AccountService, claim: IdempotencyClaim): Promise<void> {
  try {
    await service.idempotency.finish(claim, undefined);
  } catch {
    // The record stays in flight (a retry gets 409) until it expires.
  }
}

/** Consumes one armed `drop_after_commit` after an answer; false when the store cannot say. */
async function takeDrop(service: AccountService): Promise<boolean> {
  try {
    return await service.faults.takeDrop();
  } catch {
    return false;
  }
}
