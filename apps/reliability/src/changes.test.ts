import { describe, expect, it } from 'vitest';
import { createChanges } from './changes.js';

describe('createChanges', () => {
  it('resolves at once when the condition already holds', async () => {
    await expect(createChanges().until(() => true)).resolves.toBeUndefined();
  });

  it('resolves after the notify that makes the condition true, not before', async () => {
    const changes = createChanges();
    let count = 0;
    let done = false;
    const waiting = changes
      .until(() => count >= 2)
      .then(() => {
        done = true;
      });
    count = 1;
    changes.notify();
    await Promise.resolve();
    expect(done).toBe(false);
    count = 2;
    changes.notify();
    await waiting;
    expect(done).toBe(true);
  });
});
