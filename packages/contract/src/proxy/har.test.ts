// The recording keeps no secret in any form a server would decode, no whole card number and no security code: issue 40's forms, one by one.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { maskCardData } from './card-data.js';
import type { CapturedExchange } from './forward.js';
import { createHarRecorder } from './har.js';

const SECRET = 'harsecret';

function exchange(overrides: Partial<CapturedExchange>): CapturedExchange {
  const requestBody = overrides.requestBody ?? new Uint8Array();
  const responseBody = overrides.responseBody ?? Buffer.from('{"ok":true}');
  return {
    startedAt: 0,
    method: 'POST',
    path: '/v1/payments',
    url: 'http://127.0.0.1:4010/v1/payments',
    httpVersion: 'HTTP/1.1',
    requestHeaders: {},
    requestBody,
    requestBytes: requestBody.byteLength,
    status: 200,
    statusText: 'OK',
    responseHeaders: { 'content-type': 'application/json' },
    responseBody,
    responseBytes: responseBody.byteLength,
    cap: 1024 * 1024,
    timings: { send: 0, wait: 0, receive: 0 },
    release: () => {},
    ...overrides,
  };
}

function recorded(overrides: Partial<CapturedExchange>) {
  const recorder = createHarRecorder();
  recorder.add(exchange(overrides));
  const [entry] = recorder.document().log.entries;
  return { entry, text: JSON.stringify(recorder.document()) };
}

describe('the HAR recorder masks after decoding', () => {
  it('a percent-encoded key in the URL and its query string', () => {
    const { entry, text } = recorded({
      url: 'http://127.0.0.1:4010/v1/payments?k=sk%5Ftest%5Fharsecret%5F0001&limit=2',
    });
    expect(entry?.request.url).toBe('http://127.0.0.1:4010/v1/payments?k=sk_test_…&limit=2');
    expect(entry?.request.queryString).toEqual([
      { name: 'k', value: 'sk_test_…' },
      { name: 'limit', value: '2' },
    ]);
    expect(text).not.toContain(SECRET);
  });

  it('a JSON-escaped key in the request body', () => {
    const body = Buffer.from('{"note":"sk\\u005ftest_harsecret_0001"}');
    const { entry, text } = recorded({
      requestBody: body,
      requestHeaders: { 'content-type': 'application/json' },
    });
    expect(entry?.request.postData?.text).toBe('{"note":"sk_test_…"}');
    expect(text).not.toContain(SECRET);
  });

  it('a key inside a body that is not UTF-8 (kept as base64)', () => {
    const body = Buffer.concat([
      Buffer.from([0xff, 0xfe, 0x00]),
      Buffer.from('sk_test_harsecret_0001'),
    ]);
    const { entry } = recorded({ requestBody: body, responseBody: body });
    for (const base64 of [entry?.request.postData?.text, entry?.response.content.text]) {
      const bytes = Buffer.from(base64 ?? '', 'base64');
      expect(bytes.toString('latin1')).not.toContain(SECRET);
      expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xfe, 0x00]));
      expect(bytes.subarray(3).toString('utf8')).toBe('sk_test_…');
    }
    expect(entry?.response.content.encoding).toBe('base64');
  });

  it('a bearer credential whole, whatever follows the key', () => {
    const { entry, text } = recorded({
      requestHeaders: {
        authorization: 'Bearer sk_test_harsecret.0001!xyz',
        'x-api-key': 'sk%5Ftest%5Fharsecret',
        'proxy-authorization': `Basic ${Buffer.from('sk_test_harsecret:').toString('base64')}`,
      },
    });
    expect(entry?.request.headers).toEqual([
      { name: 'authorization', value: 'Bearer sk_test_…' },
      { name: 'x-api-key', value: 'sk_test_…' },
      { name: 'proxy-authorization', value: 'Basic sk_test_…' },
    ]);
    expect(text).not.toContain(SECRET);
  });

  it('a credential that is no key at all, by its scheme only', () => {
    const { entry } = recorded({ requestHeaders: { authorization: 'Basic dXNlcjpwYXNzd29yZA==' } });
    expect(entry?.request.headers).toEqual([{ name: 'authorization', value: 'Basic ***' }]);
  });

  it('a card number cut to six and four digits, and a security code, in bodies and the query', () => {
    const body = Buffer.from('{"number":"4242 4242 4242 4242","cvc":"123","amount":1500}');
    const { entry, text } = recorded({
      url: 'http://127.0.0.1:4010/v1/payments?pan=5555555555554444&cvv=999',
      requestBody: body,
      responseBody: Buffer.from('{"echo":"4000-0566-5566-5556"}'),
    });
    expect(entry?.request.postData?.text).toBe(
      '{"number":"4242 42** **** 4242","cvc":"***","amount":1500}',
    );
    expect(entry?.response.content.text).toBe('{"echo":"4000-05**-****-5556"}');
    expect(entry?.request.url).toBe(
      'http://127.0.0.1:4010/v1/payments?pan=555555******4444&cvv=***',
    );
    expect(text).not.toContain('4242 4242 4242 4242');
  });
});

describe('maskCardData', () => {
  it('keeps numbers that are not card numbers: amounts, timestamps, ids, failing Luhn', () => {
    for (const text of [
      '{"amount":1500}',
      '{"created":1732710000000}',
      '4242424242424241',
      'pay_4242424242424242x',
    ])
      expect(maskCardData(text)).toBe(text);
  });
});

describe('writing the recording', () => {
  it('leaves no temporary file beside the path when the write fails, and writes whole when it can', async () => {
    const directory = temporaryDirectory('contract-har-write-');
    // The path is a directory that holds a file: the rename into place fails.
    mkdirSync(join(directory, 'traffic.har'));
    writeFileSync(join(directory, 'traffic.har', 'kept'), 'x');
    const recorder = createHarRecorder();
    await expect(recorder.write(join(directory, 'traffic.har'))).rejects.toThrow();
    expect(readdirSync(directory)).toEqual(['traffic.har']);
    await recorder.write(join(directory, 'other.har'));
    expect(readdirSync(directory).sort()).toEqual(['other.har', 'traffic.har']);
  });
});
