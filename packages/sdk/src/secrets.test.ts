import { describe, expect, it } from 'vitest';
import { maskSecrets, maskSecretsIn } from './secrets.js';

describe('maskSecrets', () => {
  it.each([
    ['key sk_test_abc123 refused', 'key sk_test_… refused'],
    ['Bearer sk_live_Zz9-x.y', 'Bearer sk_…'],
    ['"sk_test_abc","sk_q"', '"sk_test_…","sk_…"'],
    ['no key here', 'no key here'],
    ['(sk_test_a1)', '(sk_test_…)'],
  ])('masks %j', (text, masked) => {
    expect(maskSecrets(text)).toBe(masked);
  });
  it('masks keys inside a JSON value and leaves other values alone', () => {
    const problem = { detail: 'sk_test_S3cret was sent', errors: [{ message: 'sk_live_x' }], n: 1 };
    expect(maskSecretsIn(problem)).toEqual({
      detail: 'sk_test_… was sent',
      errors: [{ message: 'sk_…' }],
      n: 1,
    });
    const clean = { detail: 'fine' };
    expect(maskSecretsIn(clean)).toBe(clean);
  });
});
