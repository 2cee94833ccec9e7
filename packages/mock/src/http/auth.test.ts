import { describe, expect, it } from 'vitest';
import { authenticate } from './auth.js';

describe('authenticate', () => {
  it('accepts any well-formed test key', () => {
    expect(authenticate('Bearer sk_test_12345678')).toEqual({
      ok: true,
      apiKey: 'sk_test_12345678',
    });
    expect(authenticate('bearer sk_test_abc-DEF_123')).toMatchObject({ ok: true });
  });

  it('answers missing_api_key without a header', () => {
    for (const header of [undefined, null, '', '   ']) {
      const result = authenticate(header);
      expect(result.ok === false && result.problem.code).toBe('missing_api_key');
    }
  });

  it('answers invalid_api_key for other schemes and malformed keys', () => {
    for (const header of [
      'Basic dXNlcjpwYXNz',
      'sk_test_12345678',
      'Bearer',
      'Bearer sk_test_short',
      'Bearer sk_test_has space',
      'Bearer pk_test_12345678',
      `Bearer sk_test_${'a'.repeat(129)}`,
    ]) {
      const result = authenticate(header);
      expect(result.ok === false && result.problem.code, header).toBe('invalid_api_key');
    }
  });

  it('refuses live keys and says to use a test key, without echoing the key', () => {
    const result = authenticate('Bearer sk_live_SECRETSECRET');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem.code).toBe('live_key_in_sandbox');
    expect(result.problem.detail).toContain('sk_test_');
    expect(result.problem.detail).not.toContain('SECRETSECRET');
  });
});

describe('WWW-Authenticate', () => {
  it('names the Bearer scheme, and invalid_token when a key was sent', () => {
    const missing = authenticate(null);
    expect(missing.ok === false && missing.problem.headers).toEqual({
      'www-authenticate': 'Bearer',
    });
    const invalid = authenticate('Bearer nope');
    expect(invalid.ok === false && invalid.problem.headers).toEqual({
      'www-authenticate': 'Bearer error="invalid_token"',
    });
  });
});
