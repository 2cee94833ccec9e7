// The checks of the server's options: the per-key budget's floor.
import { describe, expect, it } from 'vitest';
import { MIN_KEY_MEMORY_BUDGET_BYTES, resolveOptions } from './options.js';

describe('limits.keyMemoryBudgetBytes', () => {
  it('is refused below the floor that keeps a key’s newest Idempotency-Key records, naming it', () => {
    expect(MIN_KEY_MEMORY_BUDGET_BYTES).toBe(262_144);
    expect(() => resolveOptions({ limits: { keyMemoryBudgetBytes: 16_384 } })).toThrowError(
      'limits.keyMemoryBudgetBytes must be a number ≥ 262144; got 16384.',
    );
    const resolved = resolveOptions({
      limits: { keyMemoryBudgetBytes: MIN_KEY_MEMORY_BUDGET_BYTES },
    });
    expect(resolved.limits.keyMemoryBudgetBytes).toBe(262_144);
  });
});
