import { describe, expect, it } from 'vitest';
import { flatCopy, intern, MAX_INTERNED, MAX_INTERNED_CHARS } from './intern.js';

describe('intern', () => {
  it('gives back the same text, whatever copy it was given', () => {
    const copies = [JSON.parse('"tok_test_success"'), JSON.parse('"tok_test_success"')];
    expect(copies.map((copy: string) => intern(copy))).toEqual([
      'tok_test_success',
      'tok_test_success',
    ]);
  });

  it('returns long strings and strings past the bound unchanged, and never fails', () => {
    const long = 'x'.repeat(MAX_INTERNED_CHARS + 1);
    expect(intern(long)).toBe(long);
    for (let index = 0; index < MAX_INTERNED + 10; index++) {
      expect(intern(`s-${index}`)).toBe(`s-${index}`);
    }
  });
});

describe('flatCopy', () => {
  it('copies latin-1 text exactly', () => {
    expect(flatCopy(`h${'abcdefghijklmnopqrstuvwxyz'.slice(0, 22)}`)).toBe(
      'habcdefghijklmnopqrstuv',
    );
  });
});
