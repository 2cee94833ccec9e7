import { describe, expect, it } from 'vitest';
import { newSigningSecret, parseSigningSecret, signMessage } from './signing.js';

describe('webhook signing', () => {
  it('reproduces the Standard Webhooks test vector', () => {
    // Published by the Standard Webhooks specification: standard-webhooks/standard-webhooks,
    // libraries/javascript/src/webhook.test.ts, test "sign function works".
    const parsed = parseSigningSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(parsed).toBeDefined();
    const signature = signMessage(
      parsed?.key as Buffer,
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes 32-byte whsec_ secrets that parse back to their key', () => {
    const { secret, key } = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(key).toHaveLength(32);
    expect(parseSigningSecret(secret)?.key).toEqual(key);
  });

  it('refuses secrets that are not whsec_<base64>', () => {
    for (const secret of ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_', 'whsec_%%%']) {
      expect(parseSigningSecret(secret)).toBeUndefined();
    }
  });

  it('refuses secrets under 16 bytes of key material, which the SDK cannot verify with', () => {
    expect(parseSigningSecret('whsec_AAAA')).toBeUndefined();
    expect(parseSigningSecret(`whsec_${btoa('fifteen-bytes!!')}`)).toBeUndefined();
    expect(parseSigningSecret(`whsec_${btoa('sixteen-bytes!!!')}`)?.key).toHaveLength(16);
  });
});
