import { describe, expect, it } from 'vitest';
import { MUST_MASK, MUST_NOT_MASK } from '../../../../test-support/secret-cases.js';
import { maskBody, maskEscapedSecrets, maskSecrets, maskUrl } from './secrets.js';

describe("every masker of the mock (the kit's shared cases)", () => {
  it.each(MUST_MASK)(
    'masks %s in a path, a JSON body, a body that is not JSON and a URL',
    (_, text, secret) => {
      expect(maskEscapedSecrets(text)).not.toContain(secret);
      expect(maskBody(JSON.stringify({ description: text }))).not.toContain(secret);
      expect(maskBody(text)).not.toContain(secret);
      expect(maskBody(`key=${text}&cut="${text}`)).not.toContain(secret);
      // A URL as its parser reads it (which turns `\\` into `/`: no longer a key there).
      const url = `http://127.0.0.1:3000/hook/${text}`;
      if (!text.includes('\\')) expect(maskUrl(url)).not.toContain(secret);
    },
  );

  it.each(MUST_NOT_MASK)('keeps %j as written', (text) => {
    expect(maskEscapedSecrets(text)).toBe(text);
    const body = JSON.stringify({ description: text });
    expect(maskBody(body)).toBe(body);
  });
});

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

describe('maskEscapedSecrets', () => {
  it('masks keys and signing secrets written with percent-escapes, once or twice', () => {
    expect(maskEscapedSecrets('/v1/payments/sk%5Ftest%5Fabcdefgh123')).toBe(
      '/v1/payments/sk_test_…',
    );
    expect(maskEscapedSecrets('/v1/payments/%73%6B%5F%6C%69%76%65%5F%61%62%63%64')).toBe(
      '/v1/payments/sk_live_…',
    );
    expect(maskEscapedSecrets('/v1/payments/sk%255Ftest%255Fabcdefgh123')).toBe(
      '/v1/payments/sk_test_…',
    );
    expect(maskEscapedSecrets('/x/sk_test_ab%63d%2Defgh/y')).toBe('/x/sk_test_…/y');
    // A signing secret's base64 may hold '/': the masker takes the rest of the path with it.
    expect(maskEscapedSecrets('/x/whsec%5Fc2Vj%2BcmV0%3D/y')).toBe('/x/whsec_…');
  });

  it('shows a path with no secret as it was sent, and never unescapes a control character', () => {
    expect(maskEscapedSecrets('/v1/payments/pay%20x%2Fy%00')).toBe('/v1/payments/pay%20x%2Fy%00');
    expect(maskEscapedSecrets('/v1/payments/sk_test_abcdefgh123')).toBe('/v1/payments/sk_test_…');
    expect(maskEscapedSecrets('/x/sk%5Ftest%5Fabcdefgh%0A%20%00')).toBe('/x/sk_test_…%0A%20%00');
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

describe('maskBody of text that is not whole JSON', () => {
  const body = JSON.stringify({
    url: 'https://user:hunter2@receiver.example:8443/h?token=plainvalue&x=1',
    key: 'sk_live_51Habcdefghijklmnopqrstu',
    secret: 'whsec_c2VjcmV0c2VjcmV0',
    note: 'keep me',
  });
  /** The same, with the key and URL written in JSON escapes. */
  const escaped = String.raw`{"url":"https:\/\/user:hunter2@receiver.example\u003a8443/h?token=plainvalue","key":"sk\u005flive_51Habcdefghijklmnopqrstu","n":"a\qb"}`;
  const secretParts = ['hunter2', 'plainvalue', '51Habcdefghijklmnopqrstu', 'c2VjcmV0'];

  it('masks a body cut at any length as the whole body is masked, literal by literal', () => {
    expect(maskBody(body)).toBe(
      '{"url":"https://***:***@receiver.example:8443/h?token=***&x=***","key":"sk_live_…","secret":"whsec_…","note":"keep me"}',
    );
    for (const text of [body, escaped]) {
      for (let length = 0; length < text.length; length++) {
        const masked = maskBody(text.slice(0, length));
        for (const part of secretParts) {
          // A secret cut short shows at most its first characters: never 4 in a row.
          for (let at = 0; at + 4 <= part.length; at++) {
            expect(masked, `cut at ${length}: ${masked}`).not.toContain(part.slice(at, at + 4));
          }
        }
      }
    }
  });

  it('keeps what has nothing to mask as written, and masks what is cut conservatively', () => {
    expect(maskBody('{"note":"keep \\u00e9 me","n":1,"url":"https://receiver.example/h"')).toBe(
      '{"note":"keep \\u00e9 me","n":1,"url":"https://receiver.example/h"',
    );
    expect(maskBody('{"url":"https://user:hun')).toBe('{"url":"https://***');
    expect(maskBody('{"url":"https://receiver.example:84')).toBe('{"url":"https://***');
    expect(maskBody('{"key":"sk_live_51Hab')).toBe('{"key":"sk_live_…');
    expect(maskBody('{"key":"sk\\u005flive_51Hab\\u00')).toBe('{"key":"sk_live_…');
  });

  it('masks text that is not JSON: URLs outside quotes, keys, and the literals in it', () => {
    expect(
      maskBody('amount=1000&hook=https://u:hunter2@x.example/h?t=plainvalue&key=sk_test_abc1'),
    ).toBe(
      // The URL runs to the end: its query holds the key too.
      'amount=1000&hook=https://***:***@x.example/h?t=***&key=***',
    );
    expect(maskBody('{url: \'https://u:hunter2@x.example/\', "k": "whsec_abc" }')).toBe(
      '{url: \'https://***:***@x.example/\', "k": "whsec_…" }',
    );
    expect(maskBody('plain text, nothing to mask')).toBe('plain text, nothing to mask');
  });
});
