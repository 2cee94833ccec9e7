import { describe, expect, it } from 'vitest';
import type { AccountService, EventDelivery } from '../../service/account-service.js';
import { NEXT_STATUS, onService, runStep } from '../../test-support/steps.js';
import { settleDue } from './settle.js';

const event = { event: { id: 'evt_1' } } as unknown as EventDelivery;

/** An account service whose settleDue answers `answer`. */
function settling(answer: readonly EventDelivery[]) {
  const change = { result: answer.length, events: answer };
  return {
    payments: { mayHaveDue: () => true, settleDue: () => Promise.resolve(change) },
  } as unknown as AccountService;
}

describe('settleDue', () => {
  it('goes on without delivering when nothing is due', async () => {
    const delivered: unknown[] = [];
    const run = await runStep(
      settleDue(async (events) => void delivered.push(events)),
      onService(settling([])),
    );
    expect(run.response.status).toBe(NEXT_STATUS);
    expect(delivered).toEqual([]);
  });

  it('hands what settled to the dispatcher before the operation runs', async () => {
    const order: string[] = [];
    const run = await runStep(
      settleDue(async () => void order.push('delivered')),
      onService(settling([event])),
      async () => {
        order.push('operation');
        return new Response(null, { status: 204 });
      },
    );
    expect(run.response.status).toBe(204);
    expect(order).toEqual(['delivered', 'operation']);
  });

  it('asks nothing when no payment may be due as the session read the account', async () => {
    let asked = 0;
    const service = {
      payments: {
        mayHaveDue: () => false,
        settleDue: () => {
          asked++;
          return Promise.resolve({ result: 0, events: [] });
        },
      },
    } as unknown as AccountService;
    const run = await runStep(
      settleDue(async () => {}),
      onService(service),
    );
    expect(run.response.status).toBe(NEXT_STATUS);
    expect(asked).toBe(0);
  });

  it('fails the request (a 500) when settling fails, and runs no operation', async () => {
    const failing = {
      payments: {
        mayHaveDue: () => true,
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
