// The one finder of secrets in traffic: every form a server would decode (percent-encoding, JSON escapes, Basic and any base64) is found, refused when live and masked in a recording.
import { describe, expect, it, vi } from 'vitest';
import { MUST_MASK, MUST_NOT_MASK } from '../../../../test-support/secret-cases.js';
import { maskSecrets } from '../runner/exchange-record.js';
import {
  carriesLiveKey,
  findSecrets,
  liveKeyScanner,
  maskDecodedSecrets,
  maskDecodedSecretsInBytes,
} from './decoded-secrets.js';

const basic = (text: string) => Buffer.from(text).toString('base64');

describe('carriesLiveKey', () => {
  it.each([
    ['plain in the query', '/v1/payments?key=sk_live_abc123'],
    ['percent-encoded underscore in the query', '/v1/payments?key=sk%5Flive_abc123'],
    ['percent-encoded letter in a path segment', '/v1/%73k_live_abc123/refunds'],
    ['percent-encoded twice', '/v1/payments?key=sk%255Flive%255Fabc'],
    ['Basic credentials with text after them', `Basic ${basic('sk_live_abc123:')} extra`],
    ['Basic credentials as the password', `Basic ${basic('user:sk_live_abc123')}`],
    ['base64url anywhere', basic('{"key":"sk_live_abc123"}').replace(/=+$/, '')],
    ['a bare X-Api-Key value', 'sk_live_abc123'],
    ['base64 of a percent-encoded key', `Basic ${basic('key=sk%5Flive%5Fabc123:')}`],
    ['a cookie', 'session=1; api_key=sk%5Flive%5Fabc123'],
    ['a JSON body', '{"note":"sk_live_abc123"}'],
    ['a JSON body with escapes', '{"note":"sk\\u005flive\\u005fabc123"}'],
    [
      'a JSON body with every letter escaped',
      '{"k":"\\u0073\\u006b\\u005f\\u006c\\u0069\\u0076\\u0065\\u005fx"}',
    ],
    ['a form body', 'amount=100&key=sk%5Flive%5Fabc'],
  ])('sees a live key %s', (_form, text) => {
    expect(carriesLiveKey(text)).toBe(true);
  });

  it.each([
    ['a test key', 'Bearer sk_test_abc123'],
    ['a test key in Basic', `Basic ${basic('sk_test_abc123:')}`],
    ['a field that ends in sk', '{"risk_level_high":true}'],
    ['nothing', undefined],
  ])('leaves %s alone', (_form, text) => {
    expect(carriesLiveKey(text)).toBe(false);
  });

  it('takes the old arguments (authorization, path) too', () => {
    expect(carriesLiveKey(undefined, '/v1/payments?key=sk_live_abc')).toBe(true);
    expect(carriesLiveKey('Bearer sk_test_abc12345', '/v1/payments')).toBe(false);
  });
});

describe('maskDecodedSecrets', () => {
  it.each([
    ['k=sk%5Ftest%5Fharsecret%5F0001&x=1', 'k=sk_test_…&x=1'],
    ['{"k":"sk\\u005ftest_harsecret_0001"}', '{"k":"sk_test_…"}'],
    ['Bearer sk_test_harsecret.0001!xyz', 'Bearer sk_test_…'],
    ['/v1/%73k_test_abc/refunds', '/v1/sk_test_…/refunds'],
    ['secret whsec_c2VjcmV0+/a=', 'secret whsec_…'],
    ['{"risk_level_high":true}', '{"risk_level_high":true}'],
    ['7 requests refused for an sk_live_ key', '7 requests refused for an sk_live_ key'],
  ])('masks %s', (text, masked) => {
    expect(maskDecodedSecrets(text)).toBe(masked);
  });

  it('masks a whole base64 run that holds a key', () => {
    const masked = maskDecodedSecrets(`Basic ${basic('sk_test_harsecret_0001:')}`);
    expect(masked).toBe('Basic sk_test_…');
  });

  it('masks a key inside bytes that are not UTF-8, keeping the other bytes', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('key=sk_test_binary_0001;'),
    ]);
    const masked = maskDecodedSecretsInBytes(bytes);
    expect(masked.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xfe]));
    expect(Buffer.from(masked.subarray(2)).toString('utf8')).toBe('key=sk_test_…;');
  });

  it('finds spans of the raw text', () => {
    expect(findSecrets('/v1/payments?key=sk%5Flive_abc')).toEqual([
      { start: 17, end: 30, mode: 'live' },
    ]);
  });
});

describe('liveKeyScanner', () => {
  it('holds back a window so a key cut between chunks is still seen, forwarding nothing of it', () => {
    const scan = liveKeyScanner(64);
    const body = `{"pad":"${'x'.repeat(200)}","key":"sk\\u005fli`;
    const first = scan.push(Buffer.from(body));
    expect(first).toBeInstanceOf(Buffer);
    expect((first as Buffer).toString()).not.toContain('sk');
    expect(scan.push(Buffer.from('ve_abc"}'))).toBe('refused');
  });

  it('passes a clean body whole, in order', () => {
    const scan = liveKeyScanner(8);
    const parts = [
      scan.push(Buffer.from('{"amount":')),
      scan.push(Buffer.from('100}')),
      scan.end(),
    ];
    expect(Buffer.concat(parts as Buffer[]).toString()).toBe('{"amount":100}');
  });
});

describe("the kit's shared cases, in every masker of the contract (HAR and proxy output, reports)", () => {
  it.each(MUST_MASK)('masks %s', (_, text, secret) => {
    expect(maskDecodedSecrets(text)).not.toContain(secret);
    expect(maskSecrets(text)).not.toContain(secret);
    expect(maskSecrets(maskDecodedSecrets(text))).not.toContain(secret);
  });

  it.each(MUST_NOT_MASK)('keeps %j as written', (text) => {
    expect(maskDecodedSecrets(text)).toBe(text);
    expect(maskSecrets(text)).toBe(text);
  });
});

describe('findSecrets, work on a hostile answer', () => {
  it('decodes a base64 run once, in however many decodings of the text it stands', () => {
    // Base64 nested 4 levels, each level beside an escape undone 4 times (5 views of each level).
    let text = `${'x'.repeat(64)} %2525252541`;
    for (let level = 0; level < 4; level++)
      text = `${Buffer.from(text, 'latin1').toString('base64')} %2525252541`;
    const from = vi.spyOn(Buffer, 'from');
    try {
      expect(findSecrets(text)).toEqual([]);
      // One a level (780 before: each level's run decoded again in each view of the level above).
      const base64Calls = from.mock.calls.filter((call) => (call as unknown[])[1] === 'base64');
      expect(base64Calls).toHaveLength(4);
    } finally {
      from.mockRestore();
    }
  });
});
