import { describe, expect, it } from 'vitest';
import { maskSecrets } from './secrets.js';

describe('maskSecrets', () => {
  it('masks test and live keys', () => {
    expect(maskSecrets('key sk_test_abc123XYZ and sk_live_q-w_e')).toBe(
      'key sk_test_*** and sk_live_***',
    );
  });

  it('leaves ordinary text alone', () => {
    expect(maskSecrets('use an sk_test_ key')).toBe('use an sk_test_ key');
    expect(maskSecrets('POST /v1/payments 201')).toBe('POST /v1/payments 201');
  });
});
