// The proxy's parent watch: it tells once when the parent's pid changes, and not after it is stopped.
import { describe, expect, it } from 'vitest';
import { watchParent } from './parent-watch.js';

/** A hand-turned clock: `tick()` runs the scheduled callback, as an interval would. */
function manual() {
  let callback: (() => void) | undefined;
  return {
    every: (_ms: number, tick: () => void) => {
      callback = tick;
      return () => {
        callback = undefined;
      };
    },
    tick: () => callback?.(),
    running: () => callback !== undefined,
  };
}

describe('watchParent', () => {
  it('calls the listener once, when the parent pid changes, and stops looking', () => {
    let parent = 4242;
    const clock = manual();
    let gone = 0;
    watchParent({ ppid: () => parent, every: clock.every }).onGone(() => {
      gone += 1;
    });
    clock.tick();
    expect(gone).toBe(0);
    parent = 1;
    clock.tick();
    clock.tick();
    expect(gone).toBe(1);
    expect(clock.running()).toBe(false);
  });

  it('says nothing once stopped', () => {
    let parent = 4242;
    const clock = manual();
    let gone = 0;
    const stop = watchParent({ ppid: () => parent, every: clock.every }).onGone(() => {
      gone += 1;
    });
    stop();
    parent = 1;
    clock.tick();
    expect(gone).toBe(0);
    expect(clock.running()).toBe(false);
  });
});
