import { describe, expect, it } from 'vitest';
import { NEXT_STATUS, problemOf, runStep } from '../../test-support/steps.js';
import { checkPathId } from './path-id.js';

const route = '/v1/payments/:id';

describe('checkPathId', () => {
  it('goes on for an id of a possible form, whether or not it exists', async () => {
    for (const id of ['pay_123', 'x', 'a'.repeat(255)]) {
      const run = await runStep(checkPathId('payment'), { route, path: `/v1/payments/${id}` });
      expect(run.nextCalls).toBe(1);
      expect(run.response.status).toBe(NEXT_STATUS);
    }
  });

  it('answers 404 not_found naming what the id names for an id of no possible form', async () => {
    for (const id of ['a'.repeat(256), '%00', 'pay%0A1', '%7F']) {
      const run = await runStep(checkPathId('webhook endpoint'), {
        route,
        path: `/v1/payments/${id}`,
      });
      expect(run.nextCalls).toBe(0);
      expect(run.response.status).toBe(404);
      const problem = await problemOf(run.response);
      expect(problem.code).toBe('not_found');
      expect(problem.detail).toMatch(
        /^No webhook endpoint has this id: an id is 1 to \d+ characters/,
      );
    }
  });
});
