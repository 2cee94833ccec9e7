import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../app/runtime.js';
import type { AccountService } from '../../service/account-service.js';
import { type Faults, MAX_HELD_REQUESTS_PER_KEY } from '../../shared/faults.js';
import { NEXT_STATUS, onService, problemOf, runStep } from '../../test-support/steps.js';
import { applyFaults, spendLatency } from './faults.js';
import type { Step } from './state.js';

const runtimes: Runtime[] = [];
afterEach(() => {
  for (const runtime of runtimes.splice(0)) runtime.close();
});

async function serviceWith(faults: Faults): Promise<AccountService> {
  const runtime = createRuntime({ clock: { now: () => Date.UTC(2025, 0, 15) } });
  runtimes.push(runtime);
  const service = runtime.serviceFor('sk_test_faults_steps_1');
  await service.faults.set(faults);
  return service;
}

/** A sleep that waits for nothing and remembers how long it was asked to wait. */
function recordingSleep() {
  const slept: number[] = [];
  return { slept, sleep: async (ms: number) => void slept.push(ms) };
}

describe('applyFaults', () => {
  it('goes on at once for a key with no fault armed', async () => {
    const { sleep, slept } = recordingSleep();
    const run = await runStep(applyFaults(sleep), onService(await serviceWith({})));
    expect(run.nextCalls).toBe(1);
    expect(run.request.latencyMs).toBe(0);
    expect(slept).toEqual([]);
  });

  it('answers an armed fail_next with its status, once, without going on', async () => {
    const { sleep } = recordingSleep();
    const service = await serviceWith({ fail_next: { count: 1, status: 503 } });
    const failed = await runStep(applyFaults(sleep), onService(service));
    expect(failed.nextCalls).toBe(0);
    expect(failed.response.status).toBe(503);
    const second = await runStep(applyFaults(sleep), onService(service));
    expect(second.response.status).toBe(NEXT_STATUS);
  });

  it('leaves latency for the operation to spend, and waits what it did not spend', async () => {
    const { sleep, slept } = recordingSleep();
    const service = await serviceWith({ latency_ms: 250 });
    let seen = -1;
    const answersEarly: Step = async (_c, request) => {
      seen = request.latencyMs;
      return new Response('400', { status: 400 });
    };
    const run = await runStep(applyFaults(sleep), onService(service), answersEarly);
    expect(seen).toBe(250);
    expect(run.response.status).toBe(400);
    expect(slept).toEqual([250]);
  });

  it('waits nothing more once the operation spent the latency', async () => {
    const { sleep, slept } = recordingSleep();
    const service = await serviceWith({ latency_ms: 250 });
    const run = await runStep(
      applyFaults(sleep),
      onService(service),
      spendLatency(sleep)(async () => new Response('ok', { status: 200 })),
    );
    expect(run.response.status).toBe(200);
    expect(slept).toEqual([250]);
  });

  it('answers a failure under latency after the whole latency', async () => {
    const { sleep, slept } = recordingSleep();
    const service = await serviceWith({ latency_ms: 100, fail_next: { count: 1, status: 429 } });
    const run = await runStep(applyFaults(sleep), onService(service));
    expect(run.nextCalls).toBe(0);
    expect(run.response.status).toBe(429);
    expect(slept).toEqual([100]);
  });

  it('turns a throw under latency into a 500 problem, still waiting the latency and freeing the slot', async () => {
    const { sleep, slept } = recordingSleep();
    const service = await serviceWith({ latency_ms: 100 });
    const run = await runStep(applyFaults(sleep), onService(service), async () => {
      throw new Error('boom');
    });
    expect(run.response.status).toBe(500);
    expect((await problemOf(run.response)).code).toBe('internal_error');
    expect(slept).toEqual([100]);
    const release = service.faults.holdRequest();
    expect(release).toBeTypeOf('function');
    release?.();
  });

  it('answers 429 rate_limited at once when every held slot of the key is taken, and frees each slot after', async () => {
    const { sleep } = recordingSleep();
    const service = await serviceWith({ latency_ms: 100 });
    const holds = Array.from({ length: MAX_HELD_REQUESTS_PER_KEY }, () =>
      service.faults.holdRequest(),
    );
    const full = await runStep(applyFaults(sleep), onService(service));
    expect(full.nextCalls).toBe(0);
    expect(full.response.status).toBe(429);
    expect(full.response.headers.get('retry-after')).toBe('1');
    const problem = await problemOf(full.response);
    expect(problem.code).toBe('rate_limited');
    expect(problem.detail).toContain('latency_ms');
    for (const release of holds) release?.();
    const served = await runStep(applyFaults(sleep), onService(service));
    expect(served.nextCalls).toBe(1);
    // The slot the served request took is free again.
    const again = Array.from({ length: MAX_HELD_REQUESTS_PER_KEY }, () =>
      service.faults.holdRequest(),
    );
    expect(again.every((release) => release !== undefined)).toBe(true);
    for (const release of again) release?.();
  });
});

describe('spendLatency', () => {
  it('goes on at once when no latency is left', async () => {
    const { sleep, slept } = recordingSleep();
    const run = await runStep(spendLatency(sleep));
    expect(run.nextCalls).toBe(1);
    expect(slept).toEqual([]);
  });

  it('waits the latency left, once, before going on, and marks what was read ahead stale', async () => {
    const { sleep, slept } = recordingSleep();
    const service = await serviceWith({});
    let waited = 0;
    service.waited = () => {
      waited++;
    };
    let left = -1;
    const run = await runStep(
      spendLatency(sleep),
      {
        before: (request) => {
          request.service = service;
          request.latencyMs = 40;
        },
      },
      async (_c, request) => {
        left = request.latencyMs;
        return new Response(null, { status: 204 });
      },
    );
    expect(run.response.status).toBe(204);
    expect(slept).toEqual([40]);
    expect(left).toBe(0);
    expect(waited).toBe(1);
  });
});
