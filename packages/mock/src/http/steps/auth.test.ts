import { describe, expect, it } from 'vitest';
import { inspectorMain } from '../../console/inspector-script.js';
import { NEXT_STATUS, problemOf, runStep } from '../../test-support/steps.js';
import { TEST_KEY_PATTERN } from '../auth.js';
import { authenticateKey, KEYLESS_CALLER } from './auth.js';

describe('authenticateKey', () => {
  it('goes on as the key of a well-formed Bearer sk_test_ header', async () => {
    const run = await runStep(authenticateKey(false), {
      headers: { authorization: 'Bearer sk_test_12345678' },
    });
    expect(run.nextCalls).toBe(1);
    expect(run.response.status).toBe(NEXT_STATUS);
    expect(run.request.apiKey).toBe('sk_test_12345678');
  });

  it('answers 401 missing_api_key, naming the scheme, without a header', async () => {
    const run = await runStep(authenticateKey(false));
    expect(run.nextCalls).toBe(0);
    expect(run.response.status).toBe(401);
    expect(run.response.headers.get('www-authenticate')).toBe('Bearer');
    expect(run.response.headers.get('request-id')).toBe(run.request.requestId);
    expect((await problemOf(run.response)).code).toBe('missing_api_key');
    expect(run.request.apiKey).toBe('');
  });

  it('answers 401 for a malformed key and a live key, never echoing the key', async () => {
    for (const [header, code] of [
      ['Basic dXNlcjpwYXNz', 'invalid_api_key'],
      ['Bearer sk_test_short', 'invalid_api_key'],
      ['Bearer sk_live_12345678abcdef', 'live_key_in_sandbox'],
    ] as const) {
      const run = await runStep(authenticateKey(false), { headers: { authorization: header } });
      expect(run.nextCalls).toBe(0);
      expect(run.response.status).toBe(401);
      expect(run.response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      const text = await run.response.text();
      expect(JSON.parse(text).code).toBe(code);
      expect(text).not.toContain(header.slice(7));
    }
  });

  it('serves a keyless operation without a header as the keyless caller', async () => {
    const run = await runStep(authenticateKey(true));
    expect(run.nextCalls).toBe(1);
    expect(run.request.apiKey).toBe(KEYLESS_CALLER);
  });

  it('still checks a header sent to a keyless operation', async () => {
    const bad = await runStep(authenticateKey(true), { headers: { authorization: 'Bearer nope' } });
    expect(bad.nextCalls).toBe(0);
    expect(bad.response.status).toBe(401);
    const good = await runStep(authenticateKey(true), {
      headers: { authorization: 'Bearer sk_test_12345678' },
    });
    expect(good.request.apiKey).toBe('sk_test_12345678');
  });

  it('keeps the keyless caller out of reach of any client key', () => {
    expect(TEST_KEY_PATTERN.test(KEYLESS_CALLER)).toBe(false);
  });

  it("is the console's key check too (its script carries a copy, served to the browser)", () => {
    expect(inspectorMain.toString()).toContain(`/${TEST_KEY_PATTERN.source}/`);
  });
});
