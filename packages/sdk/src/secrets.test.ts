// The kit's one masker: every case of the shared table, both ways, and what the SDK shows through it (error messages, problems, log entries).
import { describe, expect, it, vi } from 'vitest';
import { MUST_MASK, MUST_NOT_MASK } from '../../../test-support/secret-cases.js';
import { logAttempt, type RequestLogEntry } from './logger.js';
import {
  findSecrets,
  maskSecrets,
  maskSecretsIn,
  secretKind,
  secretMask,
  secretPattern,
} from './secrets.js';

describe('maskSecrets', () => {
  it.each(MUST_MASK)('masks %s', (_, text, secret) => {
    const masked = maskSecrets(text);
    expect(masked).not.toContain(secret);
    expect(masked).toMatch(/sk_(test|live|prod)_…|whsec_…/);
    // Masking twice changes nothing more.
    expect(maskSecrets(masked)).toBe(masked);
  });

  it.each(MUST_NOT_MASK)('leaves %j as written', (text) => {
    expect(maskSecrets(text)).toBe(text);
    expect(findSecrets(text)).toEqual([]);
  });

  it.each([
    ['key sk_test_abc123 refused', 'key sk_test_… refused'],
    ['Bearer sk_live_Zz9-x.y', 'Bearer sk_live_…'],
    ['"sk_test_abc","sk_live_q"', '"sk_test_…","sk_live_…"'],
    ['(sk_test_a1)', '(sk_test_…)'],
    ['any mode: sk_prod_abc', 'any mode: sk_prod_…'],
    ['id=x_sk_live_4eC39HqLyjWDarjtT1zdp7dc&y=1', 'id=x_sk_live_…&y=1'],
    // Only the key's characters are replaced: the escapes around it stay as written.
    ['/x/sk%5Ftest%5Fabcdefgh%0A%20%00', '/x/sk_test_…%0A%20%00'],
    ['q=x%5Fsk%5Ftest%5Fabcdefgh&z=2', 'q=x%5Fsk_test_…&z=2'],
    ['{"k":"sk\\u005ftest_abc"}', '{"k":"sk_test_…"}'],
    [`Authorization: Basic ${btoa('sk_live_abc123:')}`, 'Authorization: Basic sk_live_…'],
    ['secret whsec_c2VjcmV0+/= sent', 'secret whsec_… sent'],
    // A word that may be a key glued after `ta`: masked (hiding a word costs less than a key).
    ['task_test_results_2024', 'task_test_…'],
  ])('masks %j as %j', (text, masked) => {
    expect(maskSecrets(text)).toBe(masked);
  });

  it('finds where each secret stands in the text as written, and of which kind', () => {
    expect(findSecrets('GET /v1/payments/sk%5Flive%5Fabc and whsec_abc')).toEqual([
      { start: 17, end: 32, kind: 'live' },
      { start: 37, end: 46, kind: 'whsec' },
    ]);
    // One secret seen two ways (as written and decoded) is one span.
    expect(findSecrets('sk_test_ab%63d')).toEqual([{ start: 0, end: 14, kind: 'test' }]);
  });

  it('gives the one pattern, kind and mask to finders that decode on their own', () => {
    expect('x_sk_test_abcdefgh12 task_test_ sk_live_q'.match(secretPattern())).toEqual([
      'sk_test_abcdefgh12',
      'sk_live_q',
    ]);
    expect(secretKind('sk_live_abc')).toBe('live');
    expect(secretKind('whsec_abc')).toBe('whsec');
    expect(secretMask('test')).toBe('sk_test_…');
    expect(secretMask('whsec')).toBe('whsec_…');
  });

  it('reads a long hostile text in one pass per decoding (no backtracking blow-up)', () => {
    const hostile = `${'x sk_'.repeat(20_000)}${'%5F'.repeat(20_000)}${'\\u005f'.repeat(5_000)}`;
    expect(maskSecrets(hostile)).toBe(hostile);
    const glued = `${'a'.repeat(50_000)}sk_test_${'b'.repeat(50_000)}`;
    expect(maskSecrets(glued)).toBe(`${'a'.repeat(50_000)}sk_test_…`);
  });
});

describe('maskSecrets, a large text with few escapes', () => {
  it('places a key found only when decoded exactly, among escapes far apart in a 1 MB text, however deep', () => {
    const before = `${'x'.repeat(500_000)}\\n`;
    const after = `%0A${'y'.repeat(500_000)}\\u0041`;
    for (const key of [
      'sk%5Ftest%5Fabcdefgh12',
      'sk%255Ftest%255Fabcdefgh12',
      '%2573k\\u005ftest_abcdefgh12',
    ]) {
      expect(maskSecrets(`${before} ${key} ${after}`)).toBe(`${before} sk_test_… ${after}`);
    }
  });

  it('keeps a 1 MB text with one escape and no key as it is', () => {
    const text = `${'c'.repeat(1_000_000)}\\n::error::forged`;
    expect(maskSecrets(text)).toBe(text);
    expect(findSecrets(text)).toEqual([]);
  });
});

describe('maskSecretsIn', () => {
  it('masks keys inside a JSON value, member names too, and leaves other values alone', () => {
    const problem = {
      detail: 'sk_test_S3cret was sent',
      errors: [{ message: 'x_sk_live_abcdefgh1' }],
      escaped: 'sk\\u005ftest_abc',
      sk_live_named: 1,
      n: 1,
    };
    expect(maskSecretsIn(problem)).toEqual({
      detail: 'sk_test_… was sent',
      errors: [{ message: 'x_sk_live_…' }],
      escaped: 'sk_test_…',
      'sk_live_…': 1,
      n: 1,
    });
    const clean = { detail: 'fine', word: 'task_test_runner' };
    expect(maskSecretsIn(clean)).toBe(clean);
  });

  it.each(MUST_MASK)('masks %s inside a JSON string', (_, text, secret) => {
    const masked = maskSecretsIn({ detail: text });
    expect(JSON.stringify(masked)).not.toContain(secret);
  });
});

describe('logAttempt', () => {
  it.each(MUST_MASK)("masks %s in an entry's message and path", (_, text, secret) => {
    const seen: RequestLogEntry[] = [];
    logAttempt((entry) => seen.push(entry), {
      method: 'GET',
      path: `/v1/payments/${text}`,
      status: 401,
      requestId: 'req_1',
      attempt: 1,
      elapsedMs: 1,
      willRetry: false,
      message: text,
    });
    expect(JSON.stringify(seen)).not.toContain(secret);
  });
});

describe('maskSecretsIn, hostile values', () => {
  it('keeps a member named __proto__ a member, and masks what it holds', () => {
    const value = JSON.parse('{"__proto__":{"k":"sk_test_abc"},"sk_live_x":"v"}');
    const masked = maskSecretsIn(value) as Record<string, unknown>;
    expect(Object.hasOwn(masked, '__proto__')).toBe(true);
    expect(JSON.stringify(masked)).toBe('{"__proto__":{"k":"sk_test_…"},"sk_live_…":"v"}');
    expect(({} as Record<string, unknown>).k).toBeUndefined();
  });

  it('masks a string whose escapes only a second reading undoes', () => {
    expect(maskSecretsIn({ a: 'x\\u005fsk\\u005ftest\\u005fabcdefgh', b: 'sk_test_x\\' })).toEqual({
      a: 'x\\u005fsk_test_…',
      b: 'sk_test_…\\',
    });
  });
});

describe('findSecrets, work on hostile input', () => {
  /** `levels` of `Basic` credentials around `inner`, each followed by an escape undone four times over (five views of each level). */
  const nested = (inner: string, levels: number) => {
    let text = inner;
    for (let level = 0; level < levels; level++) text = `Basic ${btoa(text)} %2525252541`;
    return text;
  };

  it('decodes a Basic token once, in however many views it stands, and opens no credentials inside credentials', () => {
    const decode = vi.spyOn(globalThis, 'atob');
    try {
      // 155 decodings before (each level opened again in each view of the level above); 3 KB took a second.
      expect(findSecrets(nested('x', 4))).toEqual([]);
      expect(decode).toHaveBeenCalledTimes(1);
    } finally {
      decode.mockRestore();
    }
  });

  it.each([
    ['/x/sk%%35Ftest%%35Fabcdefgh', '/x/sk_test_…'],
    ['/x/%2Dsk_prod_abc', '/x/%2Dsk_prod_…'],
    ['q=caf%C3%A9%20order%20%2342', 'q=caf%C3%A9%20order%20%2342'],
    ['/v1/%2573%256B%255Flive%255Fabcdefgh', '/v1/sk_live_…'],
  ])(
    'the cheap look before the decoded views misses no escape a decoding makes: %s',
    (text, masked) => {
      expect(maskSecrets(text)).toBe(masked);
    },
  );

  it('still finds a key, percent-encoded or not, in Basic credentials that stand in several views', () => {
    const credentials = btoa('user:sk%5Flive%5Fabcdefgh');
    const text = `Authorization: Basic ${credentials} %2541`;
    expect(maskSecrets(text)).toBe('Authorization: Basic sk_live_… %2541');
  });
});
