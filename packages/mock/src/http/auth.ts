// Authentication: reads `Authorization: Bearer sk_test_…` and says which sandbox account it opens.
import type { ProblemInit } from '../shared/problems.js';

/** A well-formed sandbox secret key. */
export const TEST_KEY_PATTERN = /^sk_test_[A-Za-z0-9_-]{8,128}$/;

/** Either the authenticated test key or the 401 problem to answer with. */
export type AuthResult = { ok: true; apiKey: string } | { ok: false; problem: ProblemInit };

/**
 * Checks an `Authorization` header value. Any well-formed `sk_test_` key is accepted with no
 * sign-up; live keys are refused. Problem details never contain the key.
 *
 * @example
 * authenticate('Bearer sk_test_12345678'); // { ok: true, apiKey: 'sk_test_12345678' }
 * authenticate(undefined); // { ok: false, problem: { code: 'missing_api_key', … } }
 */
export function authenticate(authorization: string | null | undefined): AuthResult {
  const result = check(authorization);
  if (result.ok) return result;
  // RFC 9110 §11.6.1 and RFC 6750 §3: a 401 names the scheme, and the error when a key was sent.
  const sent = authorization !== null && authorization !== undefined && authorization.trim() !== '';
  result.problem.headers = {
    'www-authenticate': sent ? 'Bearer error="invalid_token"' : 'Bearer',
  };
  return result;
}

function check(authorization: string | null | undefined): AuthResult {
  if (authorization === null || authorization === undefined || authorization.trim() === '') {
    return {
      ok: false,
      problem: {
        code: 'missing_api_key',
        detail:
          'No API key was sent. Send your sandbox secret key as `Authorization: Bearer sk_test_…`.',
      },
    };
  }
  const separator = authorization.indexOf(' ');
  const scheme = separator === -1 ? authorization : authorization.slice(0, separator);
  if (scheme.toLowerCase() !== 'bearer') {
    return {
      ok: false,
      problem: {
        code: 'invalid_api_key',
        detail:
          'The Authorization header must use the Bearer scheme: `Authorization: Bearer sk_test_…`.',
      },
    };
  }
  const apiKey = authorization.slice(separator + 1).trim();
  if (TEST_KEY_PATTERN.test(apiKey)) return { ok: true, apiKey };
  if (apiKey.startsWith('sk_live_')) {
    return {
      ok: false,
      problem: {
        code: 'live_key_in_sandbox',
        detail:
          'A live secret key was sent to the sandbox. Use an sk_test_ key here, and keep live keys for the production base address.',
      },
    };
  }
  return {
    ok: false,
    problem: {
      code: 'invalid_api_key',
      detail:
        'The API key is not a well-formed sandbox key: it must be `sk_test_` followed by 8 to 128 letters, digits, `_` or `-`.',
    },
  };
}
