// The stage table's rounds: each build's figures as medians over its rounds, in all and per order (`round-plan.ts` says the order), and the builds compared within each round.
import type { RoundOrder, RoundPlace } from './round-plan.js';
import { median } from './stats.js';

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
