// The manual clock of a test sandbox, and the runner that moves it from one due settlement or attempt to the next.

/** A clock that moves only when told (ms epoch). */
export interface ManualClock {
  now(): number;
  set(ms: number): void;
}

/**
 * A clock that starts at `start` and moves only with `set`.
 *
 * @example
 * const clock = manualClock(Date.UTC(2026, 0, 1));
 * clock.set(clock.now() + 5000);
 */
export function manualClock(start: number): ManualClock {
  let current = start;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
  };
}

/** The last instant a sandbox date can show: 9999-12-31T23:59:59.999Z. */
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Stops a loop that a bug would make endless; far beyond any real schedule (9 attempts a delivery). */
const MAX_STEPS = 100_000;

/**
 * Moves `clock` forward to `target`, stopping at every instant something falls due on the way
 * (`nextDueAt`, server time), where `runDue` runs it and waits for it, as fake timers do.
 *
 * @example
 * await advanceClock(clock, clock.now() + 60_000, nextDueAt, runDue);
 */
export async function advanceClock(
  clock: ManualClock,
  target: number,
  nextDueAt: () => number | undefined,
  runDue: () => Promise<void>,
): Promise<void> {
  const now = clock.now();
  const shown = (ms: number) => {
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? `${ms} ms` : date.toISOString();
  };
  if (!Number.isFinite(target)) {
    throw new RangeError(`the sandbox clock needs a finite time in ms; got ${String(target)}`);
  }
  if (target < now) {
    throw new RangeError(
      `the sandbox clock only moves forward: ${shown(target)} is before its now, ${shown(now)}`,
    );
  }
  // Every date the sandbox writes stays an RFC 3339 one (a four-digit year).
  if (target > LAST_INSTANT) {
    throw new RangeError(
      `the sandbox clock stops at ${shown(LAST_INSTANT)} (RFC 3339 dates have four-digit years); got ${shown(target)}`,
    );
  }
  await runDue();
  for (let step = 0; step < MAX_STEPS; step++) {
    const due = nextDueAt();
    if (due === undefined || due > target) {
      clock.set(target);
      await runDue();
      return;
    }
    clock.set(Math.max(due, clock.now() + 1));
    await runDue();
  }
  throw new Error(
    `the sandbox clock stopped after ${MAX_STEPS} steps; something keeps falling due`,
  );
}
