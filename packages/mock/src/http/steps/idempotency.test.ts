import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../app/runtime.js';
import type { AccountService } from '../../service/account-service.js';
import { NEXT_STATUS, problemOf, runStep, type StepRequest } from '../../test-support/steps.js';
import { idempotentRequest, reclaimKey, takeIdempotencyKey } from './idempotency.js';
import { answerOperation } from './operate.js';
import type { RequestState, Step } from './state.js';

const runtimes: Runtime[] = [];
afterEach(() => {
  for (const runtime of runtimes.splice(0)) runtime.close();
});

function newService(): AccountService {
  const runtime = createRuntime({ clock: { now: () => Date.UTC(2025, 0, 15) } });
  runtimes.push(runtime);
  return runtime.serviceFor('sk_test_idempotency_steps');
}

/** A /v1 POST as the steps before this one leave it: account open, body read and checked. */
function post(service: AccountService, key: string | undefined, body = { amount: 1 }): StepRequest {
  return {
    method: 'POST',
    before: (request) => {
      request.service = service;
      request.read = { ok: true, body, text: JSON.stringify(body) };
      request.prepared = { ok: true, value: () => ({ status: 201, body }) };
      request.idempotencyKey = key;
    },
  };
}

/** The operation: answers 201 and completes the request's record. */
const created: Step = (_c, request) =>
  Promise.resolve(answerOperation(request, { status: 201, body: { id: 'pay_1' } }));

const sandboxFull = {
  code: 'sandbox_full' as const,
  detail: 'full',
  headers: { 'Retry-After': '30' },
};

describe('idempotentRequest', () => {
  it('is the request as its record sees it, built once; none without the header', async () => {
    const service = newService();
    const run = await runStep((next) => next, post(service, 'order-1'));
    const keyed = idempotentRequest(run.request);
    expect(keyed).toEqual({
      key: 'order-1',
      method: 'POST',
      path: '/v1/payments',
      bodyText: '{"amount":1}',
      body: { amount: 1 },
    });
    expect(idempotentRequest(run.request)).toBe(keyed);
    const unkeyed = await runStep((next) => next, post(service, undefined));
    expect(idempotentRequest(unkeyed.request)).toBeUndefined();
  });
});

describe('takeIdempotencyKey', () => {
  it('claims a new key around the operation and replays its answer to a retry', async () => {
    const service = newService();
    const first = await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    expect(first.response.status).toBe(201);
    expect(first.request.claim?.record.key).toBe('order-1');
    expect(first.request.claimFinished).toBe(true);
    const retry = await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    expect(retry.nextCalls).toBe(0);
    expect(retry.response.status).toBe(201);
    expect(retry.response.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.response.json()).toEqual({ id: 'pay_1' });
  });

  it('refuses a key reused with another body (422) and a key still in flight (409)', async () => {
    const service = newService();
    await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    const reused = await runStep(
      takeIdempotencyKey,
      post(service, 'order-1', { amount: 2 }),
      created,
    );
    expect(reused.nextCalls).toBe(0);
    expect(reused.response.status).toBe(422);
    expect((await problemOf(reused.response)).code).toBe('idempotency_key_reused');

    let inFlight: Response | undefined;
    const concurrent: Step = async () => {
      inFlight = (await runStep(takeIdempotencyKey, post(service, 'order-2'), created)).response;
      return new Response(null, { status: 204 });
    };
    await runStep(takeIdempotencyKey, post(service, 'order-2'), concurrent);
    expect(inFlight?.status).toBe(409);
    expect(inFlight && (await problemOf(inFlight)).code).toBe('idempotency_key_in_use');
  });

  it('gives the key back when the operation throws, so a retry is served', async () => {
    const service = newService();
    const failed = await runStep(takeIdempotencyKey, post(service, 'order-1'), async () => {
      throw new Error('boom');
    });
    expect(failed.response.status).toBe(500);
    const retry = await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    expect(retry.nextCalls).toBe(1);
    expect(retry.response.status).toBe(201);
  });

  it('gives the key back when an earlier answer left its record incomplete', async () => {
    const service = newService();
    const early = await runStep(
      takeIdempotencyKey,
      post(service, 'order-1'),
      async () => new Response(null, { status: 204 }),
    );
    expect(early.request.claimFinished).toBe(false);
    const retry = await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    expect(retry.nextCalls).toBe(1);
  });

  it('answers 503 sandbox_full when there is no room, with or without a key, the key given back', async () => {
    const service = newService();
    service.checkCapacity = async () => sandboxFull;
    const unkeyed = await runStep(takeIdempotencyKey, post(service, undefined), created);
    expect(unkeyed.nextCalls).toBe(0);
    expect(unkeyed.response.status).toBe(503);
    expect(unkeyed.response.headers.get('retry-after')).toBe('30');
    const keyed = await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    expect(keyed.response.status).toBe(503);
    service.checkCapacity = async () => undefined;
    const retry = await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    expect(retry.nextCalls).toBe(1);
    expect(retry.response.status).toBe(201);
  });

  it('keeps no empty account for a key it refused for want of room, with or without a key', async () => {
    const runtime = createRuntime({ clock: { now: () => Date.UTC(2025, 0, 15) } });
    runtimes.push(runtime);
    for (const key of [undefined, 'order-1']) {
      const apiKey = `sk_test_refused_${key ?? 'unkeyed'}`;
      const service = runtime.serviceFor(apiKey);
      // A write's session opens the key's account before the room is asked.
      await service.readAhead(true, undefined, undefined);
      expect(await runtime.state.store.find(apiKey)).toBeDefined();
      service.checkCapacity = async () => sandboxFull;
      const refused = await runStep(takeIdempotencyKey, post(service, key), created);
      expect(refused.response.status).toBe(503);
      expect(await runtime.state.store.find(apiKey)).toBeUndefined();
    }
  });

  it('gives the key back when asking for room fails, and fails the request', async () => {
    const service = newService();
    service.checkCapacity = async () => {
      throw new Error('store down');
    };
    const failed = await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    expect(failed.nextCalls).toBe(0);
    expect(failed.response.status).toBe(500);
    service.checkCapacity = async () => undefined;
    const retry = await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    expect(retry.nextCalls).toBe(1);
  });

  it('takes an armed drop_after_commit after an answer and a replay, not after a failure', async () => {
    const service = newService();
    await service.faults.set({ drop_after_commit: { count: 3 } });
    const thrown = await runStep(takeIdempotencyKey, post(service, undefined), async () => {
      throw new Error('boom');
    });
    expect(thrown.request.drop).toBe(false);
    const served = await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    expect(served.request.drop).toBe(true);
    const replayed = await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    expect(replayed.request.drop).toBe(true);
    expect((await service.faults.get()).drop_after_commit?.count).toBe(1);
  });

  it('answers even when the store fails after the change (drop and release)', async () => {
    const service = newService();
    service.faults.takeDrop = async () => {
      throw new Error('store down');
    };
    service.release = async () => {
      throw new Error('store down');
    };
    const run = await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    expect(run.response.status).toBe(201);
    expect(run.request.drop).toBe(false);
  });
});

describe('reclaimKey', () => {
  it('goes on with the same claim while the key’s account stands', async () => {
    const service = newService();
    let claimSeen: unknown;
    const run = await runStep(takeIdempotencyKey, post(service, 'order-1'), (c, request) =>
      reclaimKey(async (_c, after) => {
        claimSeen = after.claim;
        return answerOperation(after, { status: 201, body: {} });
      })(c, request),
    );
    expect(run.response.status).toBe(201);
    expect(claimSeen).toBe(run.request.claim);
  });

  it('takes the key again on the new account when the key was reset while it waited', async () => {
    const service = newService();
    let before: RequestState['claim'];
    let after: RequestState['claim'];
    const run = await runStep(takeIdempotencyKey, post(service, 'order-1'), async (c, request) => {
      before = request.claim;
      await service.reset();
      expect(request.claim?.account.closed).toBe(true);
      return reclaimKey(async (_c, again) => {
        after = again.claim;
        return answerOperation(again, { status: 201, body: { id: 'pay_2' } });
      })(c, request);
    });
    expect(run.response.status).toBe(201);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(after?.account.closed).toBe(false);
    const retry = await runStep(takeIdempotencyKey, post(service, 'order-1'), created);
    expect(retry.response.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.response.json()).toEqual({ id: 'pay_2' });
  });

  it('goes on at once for a request holding no key', async () => {
    const run = await runStep(reclaimKey);
    expect(run.response.status).toBe(NEXT_STATUS);
  });
});
