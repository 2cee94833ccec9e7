import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RELAUNCHED_ENV } from './heap-limit.js';
import { LAUNCHER_PID_ENV, watchLauncher } from './launcher-watch.js';

/** A pid no process has now (a child that already exited and was reaped). */
const GONE_PID = String(spawnSync('true').pid);

let stops: Array<() => void> = [];
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
  vi.useRealTimers();
});

/** Watches with `env` and says how many times onGone ran after `ms` of (fake) time. */
function goneCalls(env: Record<string, string>, ms = 1000): number {
  let calls = 0;
  stops.push(
    watchLauncher(env, () => {
      calls++;
    }),
  );
  vi.advanceTimersByTime(ms);
  return calls;
}

describe('watchLauncher', () => {
  it('does not watch a CLI started directly (no package manager, not relaunched)', () => {
    expect(goneCalls({ [LAUNCHER_PID_ENV]: GONE_PID })).toBe(0);
  });

  it('watches the relaunched node: its launcher gone, even before the watch began, it stops once', () => {
    expect(goneCalls({ [RELAUNCHED_ENV]: '1', [LAUNCHER_PID_ENV]: GONE_PID })).toBe(1);
  });

  it('keeps the relaunched node while its launcher runs', () => {
    expect(goneCalls({ [RELAUNCHED_ENV]: '1', [LAUNCHER_PID_ENV]: String(process.ppid) })).toBe(0);
  });

  it('watches the parent under a package manager, which is still there', () => {
    expect(goneCalls({ npm_config_user_agent: 'pnpm/10.34.8 npm/? node/v20' })).toBe(0);
  });
});
