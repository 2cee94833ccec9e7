// The start order names only test files that exist: a renamed file would otherwise start last, unnoticed.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LONGEST_FIRST } from './longest-first.js';

describe('LONGEST_FIRST', () => {
  it('names test files of this package, each once', () => {
    const files = readdirSync(new URL('.', import.meta.url)).filter((name) =>
      name.endsWith('.test.ts'),
    );
    expect(files).toEqual(expect.arrayContaining(LONGEST_FIRST));
    expect(new Set(LONGEST_FIRST).size).toBe(LONGEST_FIRST.length);
  });
});
