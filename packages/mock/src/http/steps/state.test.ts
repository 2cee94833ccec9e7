import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AccountService } from '../../service/account-service.js';
import { runStep } from '../../test-support/steps.js';
import type { MockEnv } from '../env.js';
import type { PreparedAnswer } from '../operations.js';
import {
  afterHandler,
  afterSteps,
  composeSteps,
  RequestState,
  type Step,
  type StepFactory,
} from './state.js';

/** A step that appends its name to a list on the way in and out. */
function traced(name: string, trace: string[]): StepFactory {
  return (next) => async (c, request) => {
    trace.push(`>${name}`);
    const response = await next(c, request);
    trace.push(`<${name}`);
    return response;
  };
}

const answer: Step = async () => new Response('done', { status: 200 });

describe('composeSteps', () => {
  it('runs the steps in the order listed, the last one inside all of them', async () => {
    const trace: string[] = [];
    const run = composeSteps([traced('a', trace), false, traced('b', trace)], async () => {
      trace.push('last');
      return new Response('done', { status: 200 });
    });
    const { response } = await runStep((next) => next, {}, run);
    expect(response.status).toBe(200);
    expect(trace).toEqual(['>a', '>b', 'last', '<b', '<a']);
  });

  it('is the last step itself when every step is left out', () => {
    expect(composeSteps([false, false], answer)).toBe(answer);
    expect(composeSteps([], answer)).toBe(answer);
  });

  it('composes once: running it twice builds no new step', async () => {
    let built = 0;
    const counting: StepFactory = (next) => {
      built++;
      return next;
    };
    const run = composeSteps([counting], answer);
    await runStep((next) => next, {}, run);
    await runStep((next) => next, {}, run);
    expect(built).toBe(1);
  });
});

describe('RequestState', () => {
  it('opens with a request id, the method and the path as sent without its query', async () => {
    const { request } = await runStep((next) => next, {
      method: 'POST',
      path: '/v1/payments?expand=x',
      route: '/v1/payments',
    });
    expect(request).toBeInstanceOf(RequestState);
    expect(request.requestId).toMatch(/^req_/);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/payments');
    expect(request.receivedAt).toBe(Date.UTC(2025, 0, 15));
    expect(request.service).toBeUndefined();
    expect(request.drop).toBe(false);
  });

  it('has no arrival time when the clock fails, rather than failing', async () => {
    const app = new Hono<MockEnv>();
    let state: RequestState | undefined;
    app.get('/x', (c) => {
      state = new RequestState(c, {
        now: () => {
          throw new Error('clock down');
        },
      });
      return c.text('ok');
    });
    await app.request('/x');
    expect(state?.receivedAt).toBeUndefined();
    expect(state?.requestId).toMatch(/^req_/);
  });

  it('gives the account opened to the steps after it, and throws when none was', async () => {
    const service = {} as unknown as AccountService;
    const { request } = await runStep((next) => next, {
      before: (state) => {
        state.service = service;
      },
    });
    expect(request.account()).toBe(service);
    const { request: unopened } = await runStep((next) => next);
    expect(() => unopened.account()).toThrow(/unreachable/);
  });
});

describe('afterSteps', () => {
  /** Runs `afterSteps` in a route with `next` after it, recording what it was handed. */
  function answeredAfter(next: Step) {
    const seen: string[] = [];
    const app = new Hono<MockEnv>();
    let answering: Response | Promise<Response> | undefined;
    app.get('/x', (c) => {
      const request = new RequestState(c, { now: () => 0 });
      answering = afterSteps(
        next,
        c,
        request,
        (_c, _request, response) => {
          seen.push(`answered ${response.status}`);
          return new Response(null, { status: response.status + 1 });
        },
        (_c, _request, error) => {
          seen.push(`failed ${(error as Error).message}`);
          return new Response(null, { status: 500 });
        },
      );
      seen.push('returned');
      return answering;
    });
    return { seen, app, answering: () => answering };
  }

  it('hands an answer made at once on in the same tick, and answers at once', async () => {
    const run = answeredAfter(() => new Response(null, { status: 200 }));
    const response = await run.app.request('/x');
    expect(run.answering()).toBeInstanceOf(Response);
    expect(run.seen).toEqual(['answered 200', 'returned']);
    expect(response.status).toBe(201);
  });

  it('hands a promised answer on once it resolves', async () => {
    const run = answeredAfter(async () => new Response(null, { status: 200 }));
    const response = await run.app.request('/x');
    expect(run.answering()).toBeInstanceOf(Promise);
    expect(run.seen).toEqual(['returned', 'answered 200']);
    expect(response.status).toBe(201);
  });

  it('hands a throw, and a rejection, to the failure', async () => {
    const thrown = answeredAfter(() => {
      throw new Error('at once');
    });
    expect((await thrown.app.request('/x')).status).toBe(500);
    expect(thrown.seen).toEqual(['failed at once', 'returned']);
    const rejected = answeredAfter(async () => {
      throw new Error('later');
    });
    expect((await rejected.app.request('/x')).status).toBe(500);
    expect(rejected.seen).toEqual(['returned', 'failed later']);
  });
});

describe('afterHandler', () => {
  it('answers a handler’s answer made at once at once, and a promised one when it resolves', async () => {
    const answer = { status: 200, body: {} };
    const toResponse = (given: PreparedAnswer) =>
      new Response(null, { status: 'status' in given ? given.status : 500 });
    expect(afterHandler(answer, toResponse)).toBeInstanceOf(Response);
    const later = afterHandler(Promise.resolve(answer), toResponse);
    expect(later).toBeInstanceOf(Promise);
    expect((await later).status).toBe(200);
  });
});
