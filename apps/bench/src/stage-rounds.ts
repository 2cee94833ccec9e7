// The stage table's rounds: the order the builds are measured in, reversed round by round (A/B, then B/A), and each build's figures as medians over its rounds, in all and per order.
import { median } from './stats.js';

/** A round's order: the builds as listed (the oldest first, this checkout last) or reversed. */
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
 * stageRoundPlan(2, 2); // [{ round: 1, order: 'listed', builds: [0, 1] }, { round: 2, order: 'reversed', builds: [1, 0] }]
 */
export function stageRoundPlan(buildCount: number, rounds: number): PlannedRound[] {
  if (!Number.isInteger(buildCount) || buildCount < 0) {
    throw new RangeError(`stage rounds: build count ${buildCount}, expected an integer ≥ 0`);
  }
  if (!Number.isInteger(rounds) || rounds < 0) {
    throw new RangeError(`stage rounds: ${rounds} rounds, expected an integer ≥ 0`);
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
    throw new RangeError(`stage rounds: build ${build} not in round ${planned.round}`);
  return { round: planned.round, order: planned.order, position };
}

/** One build's figures in one round (that round's unprofiled window), per request. */
export interface StageRound extends RoundPlace {
  /** Answers the server finished in the window. */
  requests: number;
  /** Process CPU (every thread) per request, µs. */
  cpuUs: number;
  /** Main-thread CPU per request, µs; null when /proc could not say. */
  mainThreadUs: number | null;
  /** Bytes allocated per request (heap around GCs). */
  allocatedBytes: number;
}

/** The medians of some rounds' figures, and how many rounds they are over. */
export interface RoundMedians {
  rounds: number;
  cpuUs: number;
  mainThreadUs: number | null;
  allocatedBytes: number;
}

/**
 * The medians over a build's rounds with any answer (all of them, or those of one order); null
 * when there is none. The main thread's median is null when any of those rounds lacks it.
 *
 * @example
 * medianOverRounds(result.rounds)?.cpuUs; // the figure the table reports
 * medianOverRounds(result.rounds, 'reversed')?.cpuUs; // the same over the rounds run this checkout first
 */
export function medianOverRounds(
  rounds: readonly StageRound[],
  order?: RoundOrder,
): RoundMedians | null {
  const chosen = rounds.filter(
    (round) => round.requests > 0 && (order === undefined || round.order === order),
  );
  if (chosen.length === 0) return null;
  const main = chosen.map((round) => round.mainThreadUs);
  return {
    rounds: chosen.length,
    cpuUs: median(chosen.map((round) => round.cpuUs)),
    mainThreadUs: main.every((value): value is number => value !== null) ? median(main) : null,
    allocatedBytes: median(chosen.map((round) => round.allocatedBytes)),
  };
}

/**
 * `BENCH_STAGE_ROUNDS`: the stage table's rounds when set (a whole number from 1 to 20), else
 * `fallback`; anything else is refused with what was expected.
 *
 * @example
 * stageRoundsFrom('4', 2); // 4
 * stageRoundsFrom(undefined, 2); // 2
 */
export function stageRoundsFrom(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const rounds = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || rounds < 1 || rounds > 20) {
    throw new RangeError(
      `BENCH_STAGE_ROUNDS is "${value}": expected a whole number of rounds from 1 to 20`,
    );
  }
  return rounds;
}

/** Two builds' figures compared round by round: each round's ratio and their median. */
export interface PairedRatios {
  /** `current` / `other` in each round both answered in, by round number. */
  perRound: { round: number; ratio: number }[];
  /** Their median; null when no round has both. */
  median: number | null;
}

/**
 * The current build's CPU per request over another's within each round (both measured minutes
 * apart on the same machine), and the median of those ratios: a load that changes from round to
 * round moves both builds of a round, so it moves these ratios less than the ratio of the medians.
 *
 * @example
 * pairedRoundRatios(current.rounds, previous.rounds).median; // e.g. 0.92
 */
export function pairedRoundRatios(
  current: readonly StageRound[],
  other: readonly StageRound[],
): PairedRatios {
  const perRound: PairedRatios['perRound'] = [];
  for (const mine of [...current].sort((a, b) => a.round - b.round)) {
    const theirs = other.find((round) => round.round === mine.round);
    if (theirs === undefined || mine.requests === 0 || theirs.requests === 0) continue;
    if (theirs.cpuUs <= 0) continue;
    perRound.push({ round: mine.round, ratio: mine.cpuUs / theirs.cpuUs });
  }
  return {
    perRound,
    median: perRound.length === 0 ? null : median(perRound.map((one) => one.ratio)),
  };
}
