import { describe, expect, it } from 'vitest';
import { maskBody, maskSecrets, maskUrl } from './secrets.js';

describe('maskSecrets', () => {
  it('masks test and live keys', () => {
    expect(maskSecrets('key sk_test_abc123XYZ and sk_live_q-w_e')).toBe(
      'key sk_test_… and sk_live_…',
    );
  });

  it('leaves ordinary text alone', () => {
    expect(maskSecrets('use an sk_test_ key')).toBe('use an sk_test_ key');
    expect(maskSecrets('POST /v1/payments 201')).toBe('POST /v1/payments 201');
  });
});

describe('maskUrl', () => {
  it('masks credentials and query values, keeps the rest', () => {
    expect(maskUrl('https://user:pw@example.com/hook?token=abc&x=1')).toBe(
      'https://***:***@example.com/hook?token=***&x=***',
    );
    expect(maskUrl('http://127.0.0.1:3000/webhooks')).toBe('http://127.0.0.1:3000/webhooks');
    expect(maskUrl('not a url sk_test_abcdefgh')).toBe('not a url sk_test_…');
  });
});

describe('maskBody', () => {
  it('keeps a member named __proto__ and masks what it holds', () => {
    const masked = JSON.parse(maskBody('{"__proto__":{"key":"sk_test_abcdefgh123"},"a":1}'));
    expect(Object.hasOwn(masked, '__proto__')).toBe(true);
    expect(JSON.stringify(masked)).toBe('{"__proto__":{"key":"sk_test_…"},"a":1}');
  });

  it('masks a secret that is a member name', () => {
    const masked = maskBody('{"sk_test_abcdefgh123":1,"whsec_c2VjcmV0":2,"https://u:p@x.test/":3}');
    expect(masked).toBe('{"sk_test_…":1,"whsec_…":2,"https://***:***@x.test/":3}');
  });
});
