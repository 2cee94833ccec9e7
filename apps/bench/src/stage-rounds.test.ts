import { describe, expect, it } from 'vitest';
import { settingsFor } from './modes.js';
import { alternatingRoundPlan, placeInRound, type RoundOrder } from './round-plan.js';
import type { ProbeWindow } from './stage-probe.js';
import {
  medianOverRounds,
  pairedRoundRatios,
  type StageRound,
  stageRoundsFrom,
} from './stage-rounds.js';
import {
  type MockBuild,
  type StageWindow,
  stageRoundOf,
  stageSizes,
  summarizeStages,
} from './stages.js';
import { renderStages } from './stages-report.js';
import { CLEAN_LOAD } from './test-support/stage-windows.js';

const round = (number: number, cpuUs: number, extra: Partial<StageRound> = {}): StageRound => {
  const order: RoundOrder = number % 2 === 1 ? 'listed' : 'reversed';
  return {
    round: number,
    order,
    position: 0,
    requests: 1000,
    cpuUs,
    mainThreadUs: cpuUs / 2,
    allocatedBytes: cpuUs * 100,
    ...extra,
  };
};

describe('medianOverRounds', () => {
  it('takes the median over every round, or over one order’s', () => {
    const rounds = [round(1, 300), round(2, 330), round(3, 310), round(4, 340), round(5, 900)];
    expect(medianOverRounds(rounds)).toEqual({
      rounds: 5,
      cpuUs: 330,
      mainThreadUs: 165,
      allocatedBytes: 33_000,
    });
    // Rounds 1, 3, 5 (listed) and 2, 4 (reversed): an outlier moves the median of neither much.
    expect(medianOverRounds(rounds, 'listed')?.cpuUs).toBe(310);
    expect(medianOverRounds(rounds, 'reversed')?.cpuUs).toBe(335);
  });

  it('leaves out rounds with no answer, says null when none is left, and the main thread only when every round has it', () => {
    expect(medianOverRounds([])).toBeNull();
    expect(medianOverRounds([round(1, 300)], 'reversed')).toBeNull();
    expect(medianOverRounds([round(1, 0, { requests: 0 }), round(2, 300)])?.cpuUs).toBe(300);
    expect(medianOverRounds([round(1, 0, { requests: 0 })])).toBeNull();
    expect(
      medianOverRounds([round(1, 300), round(2, 320, { mainThreadUs: null })])?.mainThreadUs,
    ).toBeNull();
  });
});

describe('pairedRoundRatios', () => {
  it('compares the builds within each round, by round number, and takes the median', () => {
    // The machine's load doubles in round 2: both builds pay for it, and the ratio holds.
    const previous = [round(2, 600), round(1, 300), round(3, 310)];
    const current = [round(1, 270), round(2, 540), round(3, 310)];
    const paired = pairedRoundRatios(current, previous);
    expect(paired.perRound.map((one) => one.round)).toEqual([1, 2, 3]);
    expect(paired.perRound.map((one) => one.ratio)).toEqual([0.9, 0.9, 1]);
    expect(paired.median).toBe(0.9);
  });

  it('leaves out a round one build has not, or with no answer, or with no CPU to divide by', () => {
    const previous = [round(1, 300), round(2, 300, { requests: 0 }), round(3, 0)];
    const current = [round(1, 330), round(2, 300), round(3, 300), round(4, 300)];
    expect(pairedRoundRatios(current, previous)).toEqual({
      perRound: [{ round: 1, ratio: 1.1 }],
      median: 1.1,
    });
    expect(pairedRoundRatios(current, [])).toEqual({ perRound: [], median: null });
  });
});

describe('BENCH_STAGE_ROUNDS', () => {
  it('sets the rounds of any mode, and refuses what is not 1 to 20 rounds', () => {
    expect(stageRoundsFrom(undefined, 2)).toBe(2);
    expect(stageRoundsFrom(' ', 2)).toBe(2);
    expect(stageRoundsFrom('4', 2)).toBe(4);
    for (const bad of ['0', '21', '2.5', '-1', 'four', '1e1']) {
      expect(() => stageRoundsFrom(bad, 2), bad).toThrow(
        `BENCH_STAGE_ROUNDS is "${bad}": expected a whole number of rounds from 1 to 20`,
      );
    }
    expect(stageSizes(settingsFor('full'), {}).rounds).toBe(2);
    expect(stageSizes(settingsFor('smoke'), {}).rounds).toBe(1);
    expect(stageSizes(settingsFor('quick'), { BENCH_STAGE_ROUNDS: '6' }).rounds).toBe(6);
  });
});

describe('summarizeStages and renderStages over alternating rounds', () => {
  const DIST = '/repo/packages/mock/dist';
  const probe = (profiled: boolean, cpuUs: number): ProbeWindow => ({
    request: { profiled, cpuIntervalUs: 100, heapIntervalBytes: 1024 },
    wallMs: 1000,
    cpuUs,
    mainThreadCpuUs: cpuUs / 2,
    responses: { '2xx': 1000 },
    gcs: [],
    usedHeapStart: 1_000_000,
    usedHeapEnd: 1_000_000 + cpuUs,
    ...(profiled
      ? {
          cpuProfile: {
            nodes: [
              {
                id: 1,
                callFrame: { functionName: '(root)', url: '' },
                children: [2, 3],
              },
              {
                id: 2,
                callFrame: { functionName: 'authenticate', url: `file://${DIST}/http/auth.js` },
              },
              { id: 3, callFrame: { functionName: '(garbage collector)', url: '' } },
            ],
            samples: [2, 2, 2, 3],
          },
          heapProfile: {
            head: { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [] },
            samples: [],
          },
        }
      : {}),
  });
  const load = CLEAN_LOAD;
  const builds: MockBuild[] = [
    { role: 'previous', label: 'd8aa2a1', main: '', dist: DIST, cli: '' },
    { role: 'current', label: 'this checkout', main: '', dist: DIST, cli: '' },
  ];
  // Two builds, four rounds; CPU per request (µs) of each build's unprofiled window by round: the
  // build measured second in a round pays 10 % more.
  const measured: Record<number, number[]> = { 0: [300, 330, 300, 330], 1: [330, 300, 330, 300] };
  const summarize = (index: number) => {
    const build = builds[index] as MockBuild;
    const plain: StageWindow[] = [];
    const profiled: StageWindow[] = [];
    for (const planned of alternatingRoundPlan(builds.length, 4)) {
      const place = placeInRound(planned, index);
      const perRequest = measured[index]?.[planned.round - 1] ?? 0;
      plain.push({ probe: probe(false, perRequest * 1000), load, place });
      profiled.push({ probe: probe(true, perRequest * 1400), load, place });
    }
    return summarizeStages(build, 'create', plain, profiled, DIST);
  };

  it('reports the median over the rounds, keeps each round with its place, and splits the stages by the median', () => {
    const previous = summarize(0);
    expect(previous.rounds.map((one) => [one.round, one.order, one.position, one.cpuUs])).toEqual([
      [1, 'listed', 0, 300],
      [2, 'reversed', 1, 330],
      [3, 'listed', 0, 300],
      [4, 'reversed', 1, 330],
    ]);
    expect(previous.cpuUs).toBe(315);
    expect(previous.mainThreadUs).toBe(157.5);
    // Three auth samples in four (the profiled windows' own CPU is not the figure).
    expect(previous.stageUs.auth).toBeCloseTo(157.5 * 0.75, 9);
    expect(previous.allocatedBytes).toBe(315);
    expect(previous.requests).toBe(4000);
    expect(
      stageRoundOf({ probe: probe(false, 0), load, place: previous.rounds[0] as never }),
    ).toMatchObject({ cpuUs: 0, requests: 1000 });
  });

  it('is the median, not the mean: one slow round does not move the figure', () => {
    const windows = [300, 900, 310].map((perRequest, index) => ({
      probe: probe(false, perRequest * 1000),
      load,
      place: { round: index + 1, order: 'listed' as const, position: 0 },
    }));
    const profiled = windows.map((window) => ({ ...window, probe: probe(true, 1) }));
    const result = summarizeStages(builds[1] as MockBuild, 'create', windows, profiled, DIST);
    expect(result.cpuUs).toBe(310);
    expect(result.mainThreadUs).toBe(155);
    expect(result.allocatedBytes).toBe(310);
  });

  it('renders the existing columns, then the total per order with its ratios and each round’s total', () => {
    const results = [summarize(0), summarize(1)];
    const sizes = { ...stageSizes(settingsFor('full'), {}), rounds: 4 };
    const lines = renderStages({ sizes, tool: 'wrk', results });
    expect(lines).toContain('| stage | d8aa2a1 µs | this checkout µs | current / previous |');
    expect(lines).toContain('| **total: server CPU per request** | 315 | 315 | 1.00× |');
    // The order effect, both ways: the build measured first is 10 % cheaper.
    expect(lines).toContain('| total, rounds run oldest first (odd): median | 300 | 330 | 1.10× |');
    expect(lines).toContain(
      '| total, rounds run this checkout first (even): median | 330 | 300 | 0.91× |',
    );
    expect(lines).toContain(
      '| total in each round (rounds 1, 2, …) | 300, 330, 300, 330 | 330, 300, 330, 300 |  |',
    );
    expect(lines).toContain(
      '| current / earlier build within each round: median (rounds 1, 2, …) |  |  | 1.00× (1.10, 0.91, 1.10, 0.91) |',
    );
    expect(lines.join('\n')).toContain(
      '4 round(s) take the builds in turn, the oldest first in odd rounds and this checkout first in even ones',
    );
  });

  it('shows an order with no round as not measured (one round)', () => {
    const one = (index: number) => {
      const planned = alternatingRoundPlan(2, 1)[0];
      const place = placeInRound(planned as never, index);
      return summarizeStages(
        builds[index] as MockBuild,
        'retrieve',
        [{ probe: probe(false, 100_000), load, place }],
        [{ probe: probe(true, 100_000), load, place }],
        DIST,
      );
    };
    const lines = renderStages({
      sizes: stageSizes(settingsFor('smoke'), {}),
      tool: 'autocannon',
      results: [one(0), one(1)],
    });
    expect(lines).toContain('| total, rounds run oldest first (odd): median | 100 | 100 | 1.00× |');
    expect(lines).toContain('| total, rounds run this checkout first (even): median | – | – |  |');
  });
});
