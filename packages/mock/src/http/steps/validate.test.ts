import { describe, expect, it } from 'vitest';
import type { Checked } from '../../shared/validation.js';
import { runStep } from '../../test-support/steps.js';
import type { PreparedHandler } from '../operations.js';
import { validateRequest } from './validate.js';

const handler: PreparedHandler = () => ({ status: 200, body: {} });

/** A check that accepts a body with a numeric `amount` and records what it was given. */
function amountCheck(seen: unknown[]) {
  return (body: unknown): Checked<PreparedHandler> => {
    seen.push(body);
    return typeof body === 'object' && body !== null && 'amount' in body
      ? { ok: true, value: handler }
      : {
          ok: false,
          errors: [{ param: 'amount', code: 'required', message: 'amount is required' }],
        };
  };
}

describe('validateRequest', () => {
  it('checks the body read and binds it to the handler', async () => {
    const seen: unknown[] = [];
    const run = await runStep(validateRequest(amountCheck(seen), false), {
      before: (request) => {
        request.read = { ok: true, body: { amount: 1 }, text: '{"amount":1}' };
      },
    });
    expect(run.nextCalls).toBe(1);
    expect(seen).toEqual([{ amount: 1 }]);
    expect(run.request.prepared).toEqual({ ok: true, value: handler });
  });

  it('keeps the field problems for the answer, answering nothing itself', async () => {
    const run = await runStep(validateRequest(amountCheck([]), false), {
      before: (request) => {
        request.read = { ok: true, body: {} };
      },
    });
    expect(run.nextCalls).toBe(1);
    expect(run.request.prepared?.ok).toBe(false);
  });

  it('checks no body (undefined) for an operation that reads none', async () => {
    const seen: unknown[] = [];
    await runStep(validateRequest(amountCheck(seen), false));
    expect(seen).toEqual([undefined]);
  });

  it('does not check a body it could not read', async () => {
    const seen: unknown[] = [];
    const run = await runStep(validateRequest(amountCheck(seen), true), {
      method: 'POST',
      headers: { 'idempotency-key': '' },
      before: (request) => {
        request.read = { ok: false, problem: { code: 'invalid_json', detail: 'x' } };
      },
    });
    expect(seen).toEqual([]);
    expect(run.request.prepared).toBeUndefined();
    expect(run.request.keyError).toBeUndefined();
  });

  it('reads and checks the Idempotency-Key header of an operation that takes one', async () => {
    const good = await runStep(validateRequest(amountCheck([]), true), {
      method: 'POST',
      headers: { 'idempotency-key': 'order-42' },
    });
    expect(good.request.idempotencyKey).toBe('order-42');
    expect(good.request.keyError).toBeUndefined();
    const long = await runStep(validateRequest(amountCheck([]), true), {
      method: 'POST',
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    expect(long.request.keyError).toMatchObject({
      param: 'Idempotency-Key',
      code: 'invalid_value',
    });
    const absent = await runStep(validateRequest(amountCheck([]), true), { method: 'POST' });
    expect(absent.request.idempotencyKey).toBeUndefined();
    expect(absent.request.keyError).toBeUndefined();
  });

  it('ignores the header on an operation that takes no key', async () => {
    const run = await runStep(validateRequest(amountCheck([]), false), {
      method: 'POST',
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    expect(run.request.idempotencyKey).toBeUndefined();
    expect(run.request.keyError).toBeUndefined();
  });
});
