import { describe, expect, it } from 'vitest';
import type { AccountService, EventDelivery } from '../../service/account-service.js';
import { NEXT_STATUS, onService, runStep } from '../../test-support/steps.js';
import { settleDue } from './settle.js';

const event = { event: { id: 'evt_1' } } as unknown as EventDelivery;

/** An account service whose settleDue answers `answer` (at once, or as a promise). */
function settling(answer: readonly EventDelivery[], async: boolean) {
  const change = { result: answer.length, events: answer };
  return {
    payments: { settleDue: () => (async ? Promise.resolve(change) : change) },
  } as unknown as AccountService;
}

describe('settleDue', () => {
  for (const async of [false, true]) {
    const how = async ? 'a store that answers later' : 'a store that answers at once';

    it(`goes on without delivering when nothing is due (${how})`, async () => {
      const delivered: unknown[] = [];
      const run = await runStep(
        settleDue(async (events) => void delivered.push(events)),
        onService(settling([], async)),
      );
      expect(run.response.status).toBe(NEXT_STATUS);
      expect(delivered).toEqual([]);
    });

    it(`hands what settled to the dispatcher before the operation runs (${how})`, async () => {
      const order: string[] = [];
      const run = await runStep(
        settleDue(async () => void order.push('delivered')),
        onService(settling([event], async)),
        async () => {
          order.push('operation');
          return new Response(null, { status: 204 });
        },
      );
      expect(run.response.status).toBe(204);
      expect(order).toEqual(['delivered', 'operation']);
    });
  }

  it('fails the request (a 500) when settling fails, and runs no operation', async () => {
    const failing = {
      payments: {
        settleDue: () => Promise.reject(new Error('store down')),
      },
    } as unknown as AccountService;
    const run = await runStep(
      settleDue(async () => {}),
      onService(failing),
    );
    expect(run.nextCalls).toBe(0);
    expect(run.response.status).toBe(500);
  });
});
