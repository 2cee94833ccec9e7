import { describe, expect, it } from 'vitest';
import { extend } from './objects.js';

describe('extend', () => {
  it('copies the base and adds the extra properties after it, leaving both unchanged', () => {
    const base = { a: 1, b: 'two' };
    const extra = { c: true };
    const result = extend(base, extra);
    expect(result).toEqual({ a: 1, b: 'two', c: true });
    expect(Object.keys(result)).toEqual(['a', 'b', 'c']);
    expect(result).not.toBe(base);
    expect(base).toEqual({ a: 1, b: 'two' });
    expect(extra).toEqual({ c: true });
  });

  it('lets an extra property replace the base one in place, as a spread does', () => {
    const result = extend({ url: 'https://u:p@example.com', id: 'we_1' }, { url: 'masked' });
    expect(result).toEqual({ url: 'masked', id: 'we_1' });
    expect(Object.keys(result)).toEqual(['url', 'id']);
    expect(JSON.stringify(result)).toBe(
      JSON.stringify({ ...{ url: 'https://u:p@example.com', id: 'we_1' }, url: 'masked' }),
    );
  });
});
