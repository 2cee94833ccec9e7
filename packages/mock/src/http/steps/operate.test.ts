import { describe, expect, it } from 'vitest';
import type { AccountService, EventDelivery } from '../../service/account-service.js';
import type { IdempotencyClaim } from '../../service/idempotency.js';
import { jsonResponse } from '../../store/records.js';
import { runStep, type StepRequest } from '../../test-support/steps.js';
import { bindHandler } from '../operation-input.js';
import type { HandlerInput, PreparedAnswer } from '../operations.js';
import { answerOperation, operate } from './operate.js';

const event = { event: { id: 'evt_1' } } as unknown as EventDelivery;
const service = { idempotency: { finish: async () => {} } } as unknown as AccountService;

/** A request whose body was checked: `handle` bound to it (no body). */
function ready(
  handle: (input: HandlerInput<undefined>) => PreparedAnswer | Promise<PreparedAnswer>,
  more: Partial<StepRequest> = {},
): StepRequest {
  return {
    route: '/v1/payments/:id',
    path: '/v1/payments/pay_7?limit=5&starting_after=pay_1',
    ...more,
    before: (request) => {
      request.service = service;
      request.prepared = { ok: true, value: bindHandler(handle, undefined) };
      more.before?.(request);
    },
  };
}

const noDelivery = async () => {};

describe('operate', () => {
  it('runs the handler with the path’s id, its query and the caller, and answers its body', async () => {
    const seen: Record<string, unknown> = {};
    const run = await runStep(
      (next) => next,
      ready((input) => {
        seen.id = input.id;
        seen.limit = input.query.get('limit');
        seen.local = input.callerOnThisMachine;
        seen.service = input.service;
        return { status: 200, body: { id: input.id } };
      }),
      operate(true, noDelivery),
    );
    expect(run.response.status).toBe(200);
    expect(await run.response.json()).toEqual({ id: 'pay_7' });
    expect(run.response.headers.get('request-id')).toBe(run.request.requestId);
    expect(seen).toEqual({ id: 'pay_7', limit: '5', local: true, service });
  });

  it('gives an empty id to an operation whose path has none', async () => {
    let id: string | undefined;
    await runStep(
      (next) => next,
      ready((input) => {
        id = input.id;
        return { status: 200, body: {} };
      }),
      operate(false, noDelivery),
    );
    expect(id).toBe('');
  });

  it('hands the events the operation caused to the dispatcher before it answers', async () => {
    const delivered: (readonly EventDelivery[])[] = [];
    const run = await runStep(
      (next) => next,
      ready(async () => ({ status: 201, body: {}, events: [event] })),
      operate(true, async (events) => void delivered.push(events)),
    );
    expect(run.response.status).toBe(201);
    expect(delivered).toEqual([[event]]);
  });

  it('answers a problem the operation answered, with the request’s id', async () => {
    const run = await runStep(
      (next) => next,
      ready(() => ({ problem: { code: 'not_found', detail: 'No payment has this id.' } })),
      operate(true, noDelivery),
    );
    expect(run.response.status).toBe(404);
    const body = (await run.response.json()) as { code: string; request_id: string };
    expect(body.code).toBe('not_found');
    expect(body.request_id).toBe(run.request.requestId);
  });

  it('fails the request (a 500) when the handler throws or no body was checked', async () => {
    const thrown = await runStep(
      (next) => next,
      ready(() => {
        throw new Error('boom');
      }),
      operate(true, noDelivery),
    );
    expect(thrown.response.status).toBe(500);
    const unchecked = await runStep((next) => next, {}, operate(false, noDelivery));
    expect(unchecked.response.status).toBe(500);
  });
});

describe('answerOperation', () => {
  /** A request holding a claim whose record `finish` completes, remembering what it stored. */
  function claimed(response?: ReturnType<typeof jsonResponse>) {
    const finished: unknown[] = [];
    const claim = { record: { response }, account: {} } as unknown as IdempotencyClaim;
    const holder = {
      idempotency: { finish: async (_c: unknown, stored: unknown) => void finished.push(stored) },
    } as unknown as AccountService;
    return { claim, holder, finished };
  }

  async function answer(answered: PreparedAnswer, response?: ReturnType<typeof jsonResponse>) {
    const { claim, holder, finished } = claimed(response);
    const run = await runStep(
      (next) => next,
      {
        before: (request) => {
          request.service = holder;
          request.claim = claim;
        },
      },
      async (_c, request) => answerOperation(request, answered),
    );
    return { run, finished };
  }

  it('sends a stored payment’s text as it is', async () => {
    const run = await runStep(
      (next) => next,
      {},
      async (_c, request) =>
        answerOperation(request, { status: 200, body: { ignored: true }, text: '{"id":"pay_1"}' }),
    );
    expect(await run.response.text()).toBe('{"id":"pay_1"}');
    expect(run.request.answer?.body).toBe('{"id":"pay_1"}');
  });

  it('never reads (so never parses) the body of an answer given as its text', async () => {
    let reads = 0;
    const answered = {
      status: 200,
      text: '{"id":"pay_1"}',
      get body() {
        reads++;
        return JSON.parse(this.text) as unknown;
      },
    };
    const run = await runStep(
      (next) => next,
      {},
      async (_c, request) => answerOperation(request, answered),
    );
    expect(await run.response.text()).toBe('{"id":"pay_1"}');
    expect(reads).toBe(0);
  });

  it('completes the request’s record with an answer that changed nothing', async () => {
    const { run, finished } = await answer({ status: 200, body: { id: 'pay_1' } });
    expect(run.response.status).toBe(200);
    expect(run.request.claimFinished).toBe(true);
    expect(finished).toHaveLength(1);
    expect((finished[0] as { body: string }).body).toBe('{"id":"pay_1"}');
  });

  it('answers what the operation stored with its change, not the answer again', async () => {
    const stored = jsonResponse(201, '{"id":"pay_9"}');
    const { run } = await answer({ status: 201, body: { id: 'other' } }, stored);
    expect(await run.response.text()).toBe('{"id":"pay_9"}');
  });

  it('frees the key after a 400 (nothing stored) so a corrected retry is served', async () => {
    const { run, finished } = await answer({
      problem: { code: 'invalid_request', detail: 'amount is too large.' },
    });
    expect(run.response.status).toBe(400);
    expect(finished).toEqual([undefined]);
  });
});
