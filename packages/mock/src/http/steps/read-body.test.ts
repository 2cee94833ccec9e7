import { describe, expect, it } from 'vitest';
import { NEXT_STATUS, runStep } from '../../test-support/steps.js';
import { readBody } from './read-body.js';

const json = { 'content-type': 'application/json' };

describe('readBody', () => {
  it('reads a JSON body once and keeps it (and its text) on the request', async () => {
    const run = await runStep(readBody(1024), {
      method: 'POST',
      headers: json,
      body: '{"amount":1000}',
    });
    expect(run.response.status).toBe(NEXT_STATUS);
    expect(run.request.read).toEqual({ ok: true, body: { amount: 1000 }, text: '{"amount":1000}' });
  });

  it('keeps an absent body as none', async () => {
    const run = await runStep(readBody(1024), { method: 'POST' });
    expect(run.request.read).toEqual({ ok: true, body: undefined });
  });

  it('answers nothing itself for a body it cannot read: the problem waits on the request', async () => {
    for (const [headers, body, code] of [
      [{ 'content-type': 'text/plain' }, 'amount=1', 'unsupported_media_type'],
      [json, `{"a":"${'x'.repeat(2000)}"}`, 'body_too_large'],
      [json, '{"amount":', 'invalid_json'],
    ] as const) {
      const run = await runStep(readBody(1024), { method: 'POST', headers, body });
      expect(run.nextCalls).toBe(1);
      expect(run.response.status).toBe(NEXT_STATUS);
      const read = run.request.read;
      expect(read?.ok === false && read.problem.code).toBe(code);
      expect(run.request.bodyText).toBeUndefined();
    }
  });
});
