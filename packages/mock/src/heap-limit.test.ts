import { describe, expect, it } from 'vitest';
import { heapLimitFlags, heapLimitMiB, RELAUNCHED_ENV } from './heap-limit.js';

describe('heapLimitFlags', () => {
  it('sizes the heap from the default budget', () => {
    expect(heapLimitFlags([], [], {})).toEqual(['--max-old-space-size=384']);
  });

  it('follows --memory-budget, never below 192 MiB', () => {
    expect(heapLimitFlags(['--memory-budget', '1024'], [], {})).toEqual([
      '--max-old-space-size=1152',
    ]);
    expect(heapLimitFlags(['--memory-budget=32'], [], {})).toEqual(['--max-old-space-size=192']);
    expect(heapLimitMiB(0)).toBe(192);
  });

  it("respects the user's own limit, on the command line or in NODE_OPTIONS", () => {
    expect(heapLimitFlags([], ['--max-old-space-size=2048'], {})).toBeUndefined();
    expect(heapLimitFlags([], [], { NODE_OPTIONS: '--max-old-space-size=2048' })).toBeUndefined();
  });

  it('never relaunches twice, nor for --help, --version or a wrong flag', () => {
    expect(heapLimitFlags([], [], { [RELAUNCHED_ENV]: '1' })).toBeUndefined();
    expect(heapLimitFlags(['--help'], [], {})).toBeUndefined();
    expect(heapLimitFlags(['--version'], [], {})).toBeUndefined();
    expect(heapLimitFlags(['--port', 'abc'], [], {})).toBeUndefined();
  });
});
