// The order servers or builds are measured in round by round: as listed, then in reverse (A/B, then B/A), so that no one is always measured right after the same neighbour.

/** A round's order: the builds (or servers) as listed (in the stage table the oldest first, this checkout last) or reversed. */
export type RoundOrder = 'listed' | 'reversed';

/** One round of the plan: its number (from 1), its order and the builds' indices in the order measured. */
export interface PlannedRound {
  round: number;
  order: RoundOrder;
  builds: number[];
}

/** Where a window was measured: its round, that round's order and the build's position in it (0: first). */
export interface RoundPlace {
  round: number;
  order: RoundOrder;
  position: number;
}

/**
 * The order of each round: odd rounds take the builds as listed, even rounds in reverse, so that in
 * an even number of rounds every build is measured first as often as last (ABBA for two builds in
 * two rounds), and a drift of the machine over the run weighs on no build more than another.
 *
 * @example
 * alternatingRoundPlan(2, 2); // [{ round: 1, order: 'listed', builds: [0, 1] }, { round: 2, order: 'reversed', builds: [1, 0] }]
 */
export function alternatingRoundPlan(buildCount: number, rounds: number): PlannedRound[] {
  if (!Number.isInteger(buildCount) || buildCount < 0) {
    throw new RangeError(`round plan: build count ${buildCount}, expected an integer ≥ 0`);
  }
  if (!Number.isInteger(rounds) || rounds < 0) {
    throw new RangeError(`round plan: ${rounds} rounds, expected an integer ≥ 0`);
  }
  const listed = Array.from({ length: buildCount }, (_, index) => index);
  return Array.from({ length: rounds }, (_, index) => {
    const order: RoundOrder = index % 2 === 0 ? 'listed' : 'reversed';
    return { round: index + 1, order, builds: order === 'listed' ? listed : [...listed].reverse() };
  });
}

/**
 * Where each build stands in a planned round.
 *
 * @example
 * placeInRound({ round: 2, order: 'reversed', builds: [1, 0] }, 1); // { round: 2, order: 'reversed', position: 0 }
 */
export function placeInRound(planned: PlannedRound, build: number): RoundPlace {
  const position = planned.builds.indexOf(build);
  if (position < 0)
    throw new RangeError(`round plan: build ${build} not in round ${planned.round}`);
  return { round: planned.round, order: planned.order, position };
}
