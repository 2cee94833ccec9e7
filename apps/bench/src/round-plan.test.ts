import { describe, expect, it } from 'vitest';
import { alternatingRoundPlan, placeInRound } from './round-plan.js';

describe('alternatingRoundPlan', () => {
  it('runs two builds A/B, then B/A (ABBA)', () => {
    expect(alternatingRoundPlan(2, 2)).toEqual([
      { round: 1, order: 'listed', builds: [0, 1] },
      { round: 2, order: 'reversed', builds: [1, 0] },
    ]);
    expect(alternatingRoundPlan(2, 4).flatMap((round) => round.builds)).toEqual([
      0, 1, 1, 0, 0, 1, 1, 0,
    ]);
  });

  it('puts every build first as often as last in an even number of rounds, for any number of builds', () => {
    for (const builds of [1, 2, 3, 4]) {
      for (const rounds of [2, 4, 6]) {
        const plan = alternatingRoundPlan(builds, rounds);
        expect(plan).toHaveLength(rounds);
        for (let build = 0; build < builds; build++) {
          // Each round measures every build once.
          for (const planned of plan) {
            expect(planned.builds.filter((index) => index === build)).toHaveLength(1);
          }
          const positions = plan.map((planned) => placeInRound(planned, build).position);
          const mean = positions.reduce((sum, position) => sum + position, 0) / rounds;
          // The mean position is the middle one: no build is measured earlier on average.
          expect(mean, `${builds} builds, ${rounds} rounds, build ${build}`).toBe((builds - 1) / 2);
        }
      }
    }
  });

  it('takes the builds as listed in odd rounds (one round: as listed), and refuses a bad size', () => {
    expect(alternatingRoundPlan(3, 1)).toEqual([{ round: 1, order: 'listed', builds: [0, 1, 2] }]);
    expect(alternatingRoundPlan(3, 3)[2]).toEqual({ round: 3, order: 'listed', builds: [0, 1, 2] });
    expect(alternatingRoundPlan(3, 0)).toEqual([]);
    expect(() => alternatingRoundPlan(2, 1.5)).toThrow(/1.5 rounds, expected an integer ≥ 0/);
    expect(() => alternatingRoundPlan(-1, 2)).toThrow(/build count -1/);
  });

  it('places a build in its round, and refuses one not in it', () => {
    const [first, second] = alternatingRoundPlan(3, 2);
    expect(placeInRound(first as never, 2)).toEqual({ round: 1, order: 'listed', position: 2 });
    expect(placeInRound(second as never, 2)).toEqual({
      round: 2,
      order: 'reversed',
      position: 0,
    });
    expect(() => placeInRound(first as never, 3)).toThrow(/build 3 not in round 1/);
  });
});
