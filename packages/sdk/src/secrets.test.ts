import { describe, expect, it } from 'vitest';
import { maskSecrets, maskSecretsIn } from './secrets.js';

describe('maskSecrets', () => {
  it.each([
    ['key sk_test_abc123 refused', 'key sk_test_… refused'],
    ['Bearer sk_live_Zz9-x.y', 'Bearer sk_live_….y'],
    ['"sk_test_abc","sk_live_q"', '"sk_test_…","sk_live_…"'],
    // The server's own advice names the prefix; it is not a key.
    [
      'it must be `sk_…` followed by 8 to 128 characters',
      'it must be `sk_…` followed by 8 to 128 characters',
    ],
    ['Use an sk_… key here, not sk_test_', 'Use an sk_… key here, not sk_test_'],
    ['keys look like sk_test_…', 'keys look like sk_test_…'],
    ['no key here', 'no key here'],
    ['(sk_test_a1)', '(sk_test_…)'],
    ['any mode: sk_prod_abc', 'any mode: sk_prod_…'],
    ['secret whsec_c2VjcmV0+/= sent', 'secret whsec_… sent'],
    ['the secret begins with whsec_', 'the secret begins with whsec_'],
  ])('masks %j', (text, masked) => {
    expect(maskSecrets(text)).toBe(masked);
  });
  it('masks keys inside a JSON value and leaves other values alone', () => {
    const problem = { detail: 'sk_test_S3cret was sent', errors: [{ message: 'sk_live_x' }], n: 1 };
    expect(maskSecretsIn(problem)).toEqual({
      detail: 'sk_test_… was sent',
      errors: [{ message: 'sk_live_…' }],
      n: 1,
    });
    const clean = { detail: 'fine' };
    expect(maskSecretsIn(clean)).toBe(clean);
  });
});
