// The manual clock of a test sandbox, the lengths of time it takes (named units), and the runner that moves it from one due settlement or attempt to the next.

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

/**
 * A length of sandbox time for `clock.advance`: named units (`{ seconds: 5 }`, `{ minutes: 2,
 * seconds: 30 }`, `{ ms: 250 }`), added up; or a plain number of **milliseconds**, the original
 * form, kept so existing tests run unchanged. The `/_sandbox/clock/advance` control takes
 * seconds: name the unit and the two cannot be confused.
 */
export type SandboxDuration =
  | number
  | { ms?: number; seconds?: number; minutes?: number; hours?: number; days?: number };

/** Milliseconds in one of each unit a `SandboxDuration` may name. */
const UNIT_MS = { ms: 1, seconds: 1000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/**
 * A `SandboxDuration` in milliseconds; a `RangeError` naming the call, the unit and what it
 * expects for anything else (a negative or non-finite amount, an unknown unit, no unit at all).
 *
 * @example
 * durationMs({ seconds: 5 }); // 5000
 * durationMs({ minutes: 1, seconds: 30 }); // 90000
 * durationMs(250); // 250 (a number is milliseconds)
 */
export function durationMs(duration: unknown, call = 'clock.advance()'): number {
  const expected = `${call} takes a length of time: { seconds: 5 }, { ms: 250 }, { minutes, hours, days } (added up), or a number of milliseconds, each finite and ≥ 0`;
  if (typeof duration === 'number') {
    if (!Number.isFinite(duration) || duration < 0) {
      throw new RangeError(
        `${call} takes milliseconds ≥ 0; got ${String(duration)} (or name the unit: { seconds: 5 }, { ms: 250 }, { minutes, hours, days })`,
      );
    }
    return duration;
  }
  if (typeof duration !== 'object' || duration === null || Array.isArray(duration))
    throw new RangeError(`${expected}; got ${describe(duration)}`);
  const entries = Object.entries(duration);
  if (entries.length === 0) throw new RangeError(`${expected}; got {} (no unit)`);
  let total = 0;
  for (const [unit, amount] of entries) {
    if (!Object.hasOwn(UNIT_MS, unit)) {
      throw new RangeError(
        `${call} does not know the unit "${unit.slice(0, 40)}": use ${Object.keys(UNIT_MS).join(', ')}`,
      );
    }
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0)
      throw new RangeError(`${expected}; got ${unit}: ${describe(amount)}`);
    total += amount * UNIT_MS[unit as keyof typeof UNIT_MS];
  }
  return total;
}

/** A value as an error message shows it: short, whatever it is. */
function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' && value !== null ? 'an object' : String(value);
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
  nextDueAt: () => Promise<number | undefined>,
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
    const due = await nextDueAt();
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
