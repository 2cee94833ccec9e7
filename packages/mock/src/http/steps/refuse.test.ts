import { describe, expect, it } from 'vitest';
import { NEXT_STATUS, runStep } from '../../test-support/steps.js';
import type { PreparedHandler } from '../operations.js';
import { refuseInvalid } from './refuse.js';

const handler: PreparedHandler = () => ({ status: 200, body: {} });
const keyError = {
  param: 'Idempotency-Key',
  code: 'invalid_value',
  message: 'Idempotency-Key is bad',
};

interface ProblemBody {
  code: string;
  param?: string;
  errors?: { param: string }[];
}

describe('refuseInvalid', () => {
  it('goes on for a valid request, the body text kept for the inspector', async () => {
    const run = await runStep(refuseInvalid, {
      before: (request) => {
        request.read = { ok: true, body: { amount: 1 }, text: '{"amount":1}' };
        request.prepared = { ok: true, value: handler };
      },
    });
    expect(run.response.status).toBe(NEXT_STATUS);
    expect(run.request.bodyText).toBe('{"amount":1}');
  });

  it('answers an unreadable body’s problem, keeping its text', async () => {
    const run = await runStep(refuseInvalid, {
      before: (request) => {
        request.read = {
          ok: false,
          text: '{"amount":',
          problem: { code: 'invalid_json', detail: 'Not JSON.' },
        };
      },
    });
    expect(run.nextCalls).toBe(0);
    expect(run.response.status).toBe(400);
    expect(((await run.response.json()) as ProblemBody).code).toBe('invalid_json');
    expect(run.request.bodyText).toBe('{"amount":');
    expect(run.request.aborted).toBe(false);
  });

  it('marks a body cut off by the client as aborted', async () => {
    const run = await runStep(refuseInvalid, {
      before: (request) => {
        request.read = {
          ok: false,
          aborted: true,
          problem: { code: 'invalid_request', detail: 'closed' },
        };
      },
    });
    expect(run.request.aborted).toBe(true);
    expect(run.response.status).toBe(400);
  });

  it('answers every problem at once, the Idempotency-Key header’s first', async () => {
    const run = await runStep(refuseInvalid, {
      before: (request) => {
        request.read = { ok: true, body: {} };
        request.prepared = {
          ok: false,
          errors: [{ param: 'amount', code: 'required', message: 'amount is required' }],
        };
        request.keyError = keyError;
      },
    });
    expect(run.nextCalls).toBe(0);
    expect(run.response.status).toBe(400);
    const problem = (await run.response.json()) as ProblemBody;
    expect(problem.code).toBe('invalid_request');
    expect(problem.param).toBe('Idempotency-Key');
    expect(problem.errors?.map((error) => error.param)).toEqual(['Idempotency-Key', 'amount']);
  });

  it('answers a bad Idempotency-Key header alone when the body is valid', async () => {
    const run = await runStep(refuseInvalid, {
      before: (request) => {
        request.prepared = { ok: true, value: handler };
        request.keyError = keyError;
      },
    });
    expect(run.response.status).toBe(400);
    expect(((await run.response.json()) as ProblemBody).errors).toHaveLength(1);
  });

  it('throws (a 500) rather than serve when no check ran: a composition error, not a client’s', async () => {
    const run = await runStep(refuseInvalid);
    expect(run.nextCalls).toBe(0);
    expect(run.response.status).toBe(500);
  });
});
