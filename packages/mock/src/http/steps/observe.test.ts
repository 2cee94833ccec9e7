import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../app/runtime.js';
import type { MockEnv } from '../env.js';
import { answerProblem } from '../exchange.js';
import { observeRequest } from './observe.js';
import type { Step } from './state.js';

function serve(step: Step, lines: string[]) {
  const app = new Hono<MockEnv>();
  const observer = { logger: (line: string) => lines.push(line), clock: { now: () => 0 } };
  app.post('/v1/payments', observeRequest(observer, step));
  return (headers: Record<string, string> = {}) =>
    app.request('/v1/payments?key=sk_test_secret_12345', { method: 'POST', headers });
}

describe('observeRequest', () => {
  it('logs one line per request with the status, the problem code and the Request-Id', async () => {
    const lines: string[] = [];
    const call = serve(
      async (_c, request) => answerProblem(request, { code: 'not_found', detail: 'none' }),
      lines,
    );
    const response = await call();
    expect(response.status).toBe(404);
    const requestId = response.headers.get('request-id');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/ POST \/v1\/payments 404 not_found \d+ms req_/);
    expect(lines[0]?.endsWith(String(requestId))).toBe(true);
  });

  it('answers a step that throws with a 500 problem, observed once', async () => {
    const lines: string[] = [];
    const response = await serve(async () => {
      throw new Error('boom');
    }, lines)();
    expect(response.status).toBe(500);
    expect(((await response.json()) as { code: string }).code).toBe('internal_error');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(' 500 internal_error ');
  });

  it('answers a step that throws before returning a promise the same way', async () => {
    const lines: string[] = [];
    const throwing: Step = () => {
      throw new Error('sync boom');
    };
    const response = await serve(throwing, lines)();
    expect(response.status).toBe(500);
    expect(lines).toHaveLength(1);
  });

  it('records the request in the inspector of the account opened, and not one before it', async () => {
    const runtime = createRuntime({ clock: { now: () => Date.UTC(2025, 0, 15) } });
    const key = 'sk_test_observe_steps_1';
    const lines: string[] = [];
    const opened = serve(async (_c, request) => {
      request.service = runtime.serviceFor(key);
      request.bodyText = '{"amount":1}';
      return answerProblem(request, { code: 'not_found', detail: 'none' });
    }, lines);
    const refused = serve(
      async (_c, request) => answerProblem(request, { code: 'missing_api_key', detail: 'no' }),
      lines,
    );
    await refused();
    await opened();
    const inspector = await runtime.serviceFor(key).inspector.get();
    expect(inspector.requests).toHaveLength(1);
    expect(inspector.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/payments',
      status: 404,
      code: 'not_found',
      request_body: '{"amount":1}',
    });
    expect(lines.map((line) => line.split(' ')[3])).toEqual(['401', '404']);
    runtime.close();
  });
});
