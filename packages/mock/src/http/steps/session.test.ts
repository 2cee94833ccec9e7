import { describe, expect, it, vi } from 'vitest';
import type { AccountService } from '../../service/account-service.js';
import { NEXT_STATUS, problemOf, runStep } from '../../test-support/steps.js';
import { closeSession, openAccount, readAhead } from './session.js';
import type { RequestState } from './state.js';

/** A stand-in for the account service: records what its session is asked. */
function aheadService() {
  const readAheadCalls: unknown[][] = [];
  let givenBack = 0;
  const service = {
    // The store runs the steps after the session on what it read: here at once.
    withSession(post: boolean, request: unknown, paymentId: unknown, work: () => unknown) {
      readAheadCalls.push([post, request, paymentId]);
      return work();
    },
    giveBackUnusedClaim() {
      givenBack++;
      return Promise.resolve();
    },
  };
  return {
    service: service as unknown as AccountService,
    readAheadCalls,
    givenBack: () => givenBack,
  };
}

describe('closeSession', () => {
  it('persists after the answer, and answers what the steps answered', async () => {
    const persist = vi.fn(() => undefined);
    const run = await runStep(closeSession(persist));
    expect(run.response.status).toBe(NEXT_STATUS);
    expect(persist).toHaveBeenCalledTimes(1);
  });

  it('answers the durable store’s problem instead when what changed cannot be stored', async () => {
    const run = await runStep(
      closeSession(() => ({
        code: 'store_unavailable',
        detail: 'The data directory cannot be written.',
        headers: { 'Retry-After': '5' },
      })),
    );
    expect(run.nextCalls).toBe(1);
    expect(run.response.status).toBe(503);
    expect(run.response.headers.get('retry-after')).toBe('5');
    expect((await problemOf(run.response)).code).toBe('store_unavailable');
  });

  it('turns a throw of the steps after it into a 500 problem, and still persists', async () => {
    const persist = vi.fn(() => undefined);
    const run = await runStep(closeSession(persist), {}, async () => {
      throw new Error('boom');
    });
    expect(run.response.status).toBe(500);
    expect((await problemOf(run.response)).code).toBe('internal_error');
    expect(persist).toHaveBeenCalledTimes(1);
  });

  it('gives back an Idempotency-Key claimed ahead that the request never took', async () => {
    const ahead = aheadService();
    const run = await runStep(
      closeSession(() => undefined),
      {
        before: (request) => {
          request.service = ahead.service;
        },
      },
    );
    expect(run.response.status).toBe(NEXT_STATUS);
    expect(ahead.givenBack()).toBe(1);
  });
});

describe('openAccount', () => {
  it('opens the account service of the authenticated key', async () => {
    const service = aheadService().service;
    const serviceFor = vi.fn(() => service);
    const run = await runStep(openAccount(serviceFor), {
      before: (request) => {
        request.apiKey = 'sk_test_12345678';
      },
    });
    expect(serviceFor).toHaveBeenCalledWith('sk_test_12345678');
    expect(run.request.service).toBe(service);
    expect(run.response.status).toBe(NEXT_STATUS);
  });

  it('opens the keyless caller’s account like any other', async () => {
    const { service } = aheadService();
    const serviceFor = vi.fn(() => service);
    const run = await runStep(openAccount(serviceFor), {
      before: (request) => {
        request.apiKey = 'sk_test_ keyless';
      },
    });
    expect(serviceFor).toHaveBeenCalledWith('sk_test_ keyless');
    expect(run.nextCalls).toBe(1);
  });
});

describe('readAhead', () => {
  const shape = { post: false, paymentId: true };

  it('reads a payment’s path ahead with the account', async () => {
    const ahead = aheadService();
    const run = await runStep(readAhead(shape), {
      route: '/v1/payments/:id',
      path: '/v1/payments/pay_1',
      before: (request) => {
        request.service = ahead.service;
      },
    });
    expect(run.nextCalls).toBe(1);
    expect(ahead.readAheadCalls).toEqual([[false, undefined, 'pay_1']]);
  });

  it('finds the account for a read of no payment', async () => {
    const ahead = aheadService();
    await runStep(readAhead({ post: false, paymentId: false }), {
      before: (request) => {
        request.service = ahead.service;
      },
    });
    expect(ahead.readAheadCalls).toEqual([[false, undefined, undefined]]);
  });

  it('claims a valid POST’s Idempotency-Key ahead, with its body', async () => {
    const ahead = aheadService();
    const run = await runStep(readAhead({ post: true, paymentId: false }), {
      method: 'POST',
      before: (request) => {
        request.service = ahead.service;
        request.read = { ok: true, body: { amount: 1 }, text: '{"amount":1}' };
        request.prepared = { ok: true, value: () => ({ status: 200, body: {} }) };
        request.idempotencyKey = 'order-1';
      },
    });
    expect(run.nextCalls).toBe(1);
    expect(ahead.readAheadCalls).toEqual([
      [
        true,
        {
          key: 'order-1',
          method: 'POST',
          path: '/v1/payments',
          bodyText: '{"amount":1}',
          body: { amount: 1 },
        },
        undefined,
      ],
    ]);
    expect(run.request.keyRequest?.key).toBe('order-1');
  });

  it('asks for room ahead for a valid POST without an Idempotency-Key', async () => {
    const ahead = aheadService();
    await runStep(readAhead({ post: true, paymentId: false }), {
      method: 'POST',
      before: (request) => {
        request.service = ahead.service;
        request.prepared = { ok: true, value: () => ({ status: 200, body: {} }) };
      },
    });
    expect(ahead.readAheadCalls).toEqual([[true, undefined, undefined]]);
  });

  it('only finds the account for an invalid POST (its problem is answered after the faults)', async () => {
    for (const before of [
      (request: RequestState) => {
        request.read = { ok: false, problem: { code: 'invalid_json', detail: 'x' } };
      },
      (request: RequestState) => {
        request.prepared = { ok: false, errors: [] };
      },
      (request: RequestState) => {
        request.prepared = { ok: true, value: () => ({ status: 200, body: {} }) };
        request.keyError = { param: 'Idempotency-Key', code: 'invalid_value', message: 'bad' };
      },
    ]) {
      const ahead = aheadService();
      const run = await runStep(readAhead({ post: true, paymentId: false }), {
        method: 'POST',
        before: (request) => {
          request.service = ahead.service;
          before(request);
        },
      });
      expect(run.nextCalls).toBe(1);
      expect(ahead.readAheadCalls).toEqual([[false, undefined, undefined]]);
    }
  });
});
