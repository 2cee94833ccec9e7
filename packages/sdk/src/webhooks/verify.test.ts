import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { standardVector } from '../test-support/standard-webhooks-vector.js';
import {
  WebhookMissingHeaderError,
  WebhookPayloadError,
  WebhookSecretError,
  WebhookSignatureError,
  WebhookTimestampError,
  WebhookVerificationError,
} from './errors.js';
import { signWebhook } from './sign.js';
import type { WebhookEvent } from './types.js';
import { MAX_SIGNATURE_HEADER_LENGTH, verifyWebhook } from './verify.js';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const otherSecret = 'whsec_c2VjcmV0LW9mLWFub3RoZXItZW5kcG9pbnQ=';
const now = Date.UTC(2026, 0, 15, 12, 0, 0);
const nowSeconds = now / 1000;
const at = { now: () => now };

const payment = {
  id: 'pay_123',
  object: 'payment',
  status: 'SUCCEEDED',
  amount: 1000,
  currency: 'KZT',
  created_at: '2026-01-15T11:59:58Z',
  capture: true,
  description: null,
  amount_captured: 1000,
  amount_refunded: 0,
  failure_code: null,
  failure_message: null,
};
const body = JSON.stringify({
  id: 'evt_123',
  object: 'event',
  type: 'payment.succeeded',
  created_at: '2026-01-15T12:00:00Z',
  data: { object: payment },
});

async function signed(text = body, timestamp = nowSeconds, key = secret) {
  return signWebhook({ id: 'evt_123', timestamp, body: text, secret: key });
}

describe('verifyWebhook', () => {
  it('verifies the Standard Webhooks test vector', async () => {
    const { id, timestamp, body: vectorBody, signature } = standardVector;
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    };
    // The vector's body is not an event: the signature passes, then the envelope check fails.
    const error = await verifyWebhook(vectorBody, headers, secret, {
      now: () => timestamp * 1000,
    }).catch((caught) => caught);
    expect(error).toBeInstanceOf(WebhookPayloadError);
  });

  it('returns the typed event for a valid delivery, with fetch Headers or a record in any case', async () => {
    const headers = await signed();
    const event = await verifyWebhook(body, new Headers(headers), secret, at);
    expect(event.type).toBe('payment.succeeded');
    expect(event.data.object.id).toBe('pay_123');
    const shouted = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]),
    );
    expect((await verifyWebhook(body, shouted, secret, at)).id).toBe('evt_123');
    const bytes = new TextEncoder().encode(body);
    expect((await verifyWebhook(bytes, headers, secret, at)).id).toBe('evt_123');
    expect((await verifyWebhook(bytes.buffer, headers, secret, at)).id).toBe('evt_123');
  });

  it('narrows the event on type', () => {
    expectTypeOf<WebhookEvent['type']>().toEqualTypeOf<
      | 'payment.pending'
      | 'payment.authorized'
      | 'payment.succeeded'
      | 'payment.failed'
      | 'payment.canceled'
      | 'payment.refunded'
    >();
    const check = (event: WebhookEvent) => {
      if (event.type === 'payment.failed') {
        expectTypeOf(event.type).toEqualTypeOf<'payment.failed'>();
        expectTypeOf(event.data.object.failure_code).toEqualTypeOf<string | null>();
      }
    };
    expect(check).toBeTypeOf('function');
  });

  it('rejects a tampered body', async () => {
    const headers = await signed();
    const tampered = body.replace('1000', '9000');
    await expect(verifyWebhook(tampered, headers, secret, at)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
  });

  it('rejects a wrong secret and a changed id or timestamp', async () => {
    const headers = await signed();
    await expect(verifyWebhook(body, headers, otherSecret, at)).rejects.toThrow(
      WebhookSignatureError,
    );
    await expect(
      verifyWebhook(body, { ...headers, 'webhook-id': 'evt_other' }, secret, at),
    ).rejects.toThrow(WebhookSignatureError);
    await expect(
      verifyWebhook(body, { ...headers, 'webhook-timestamp': String(nowSeconds + 1) }, secret, at),
    ).rejects.toThrow(WebhookSignatureError);
  });

  it('rejects timestamps too old and too new, within a configurable tolerance', async () => {
    const old = await signed(body, nowSeconds - 301);
    const error = await verifyWebhook(body, old, secret, at).catch((caught) => caught);
    expect(error).toBeInstanceOf(WebhookTimestampError);
    expect(error.code).toBe('timestamp_out_of_tolerance');
    expect(error.timestamp).toBe(nowSeconds - 301);
    const future = await signed(body, nowSeconds + 301);
    await expect(verifyWebhook(body, future, secret, at)).rejects.toThrow(WebhookTimestampError);
    expect((await verifyWebhook(body, await signed(body, nowSeconds - 300), secret, at)).id).toBe(
      'evt_123',
    );
    expect((await verifyWebhook(body, old, secret, { ...at, toleranceSeconds: 600 })).id).toBe(
      'evt_123',
    );
    for (const malformed of ['soon', '1.5', '-1', '1e9']) {
      const bad = await verifyWebhook(
        body,
        { ...old, 'webhook-timestamp': malformed },
        secret,
        at,
      ).catch((caught) => caught);
      expect(bad).toBeInstanceOf(WebhookTimestampError);
      expect(bad.code).toBe('invalid_timestamp');
      expect(bad.timestamp).toBeUndefined();
    }
    expect((await verifyWebhook(body, old, secret, { now: () => new Date(now - 1000) })).id).toBe(
      'evt_123',
    );
  });

  it('decodes signatures strictly: unpadded or non-canonical base64 does not match', async () => {
    const headers = await signed();
    const signature = (headers['webhook-signature'] as string).slice('v1,'.length);
    expect(signature.endsWith('=')).toBe(true);
    const variants = {
      unpadded: signature.replace(/=+$/, ''),
      // The last character before the padding carries unused bits; setting one is not canonical.
      nonCanonical: `${signature.slice(0, -2)}${String.fromCharCode(signature.charCodeAt(signature.length - 2) + 1)}=`,
      urlSafe: signature.replaceAll('+', '-').replaceAll('/', '_'),
    };
    for (const variant of Object.values(variants)) {
      if (variant === signature) continue;
      await expect(
        verifyWebhook(body, { ...headers, 'webhook-signature': `v1,${variant}` }, secret, at),
      ).rejects.toThrow(WebhookSignatureError);
    }
    expect((await verifyWebhook(body, headers, secret, at)).id).toBe('evt_123');
  });

  it('accepts any matching signature among several and ignores unknown versions', async () => {
    const headers = await signed();
    const rotated = await signed(body, nowSeconds, otherSecret);
    const valid = headers['webhook-signature'];
    const combined = `v2,${valid.slice(3)} v1,AAAA ${rotated['webhook-signature']} ${valid}`;
    const event = await verifyWebhook(
      body,
      { ...headers, 'webhook-signature': combined },
      secret,
      at,
    );
    expect(event.id).toBe('evt_123');
    await expect(
      verifyWebhook(body, { ...headers, 'webhook-signature': `v2,${valid.slice(3)}` }, secret, at),
    ).rejects.toThrow(WebhookSignatureError);
    for (const partial of ['v1,', valid.slice(0, 8), 'garbage']) {
      await expect(
        verifyWebhook(body, { ...headers, 'webhook-signature': partial }, secret, at),
      ).rejects.toThrow(WebhookSignatureError);
    }
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])(
    'rejects a delivery without %s',
    async (name) => {
      const headers: Record<string, string> = { ...(await signed()) };
      delete headers[name];
      const error = await verifyWebhook(body, headers, secret, at).catch((caught) => caught);
      expect(error).toBeInstanceOf(WebhookMissingHeaderError);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error.header).toBe(name);
    },
  );

  it('rejects an invalid secret and a non-event body; no message holds the secret', async () => {
    const headers = await signed();
    const errors = [
      await verifyWebhook(body, headers, 'whsec_%%%', at).catch((caught) => caught),
      await verifyWebhook(body, headers, '', at).catch((caught) => caught),
      await verifyWebhook(body, headers, otherSecret, at).catch((caught) => caught),
    ];
    expect(errors[0]).toBeInstanceOf(WebhookSecretError);
    expect(errors[1]).toBeInstanceOf(WebhookSecretError);
    for (const error of errors) {
      expect(error.message).not.toContain('%%%');
      expect(error.message).not.toContain(otherSecret.slice(6));
      expect(error.message).not.toContain(headers['webhook-signature'].slice(3));
    }
    const notJson = await signed('not json');
    await expect(verifyWebhook('not json', notJson, secret, at)).rejects.toThrow(
      WebhookPayloadError,
    );
    const array = await signed('[1]');
    await expect(verifyWebhook('[1]', array, secret, at)).rejects.toThrow(WebhookPayloadError);
  });

  it('refuses a parsed body with a TypeError that explains the raw body', async () => {
    const headers = await signed();
    await expect(
      verifyWebhook(JSON.parse(body) as unknown as string, headers, secret, at),
    ).rejects.toThrow(/raw request body/);
  });
});

describe('verifyWebhook bounds (issue 31, row 11)', () => {
  it('refuses a webhook-signature longer than 4096 characters before decoding any of it, fast', async () => {
    const headers = await signed();
    // 10 MB of well-formed v1 signatures that do not match: each was decoded before the bound.
    const forged = Array.from({ length: 220_000 }, () => `v1,${'A'.repeat(43)}=`).join(' ');
    // "Fast" as work done, not as time (a timed bound failed on a loaded machine): the refusal
    // comes before the one HMAC a call computes, and so before any signature is decoded.
    const sign = vi.spyOn(crypto.subtle, 'sign');
    try {
      const error = await verifyWebhook(
        body,
        { ...headers, 'webhook-signature': forged },
        secret,
        at,
      ).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WebhookSignatureError);
      expect((error as Error).message).toBe(
        'invalid_signature: webhook-signature is longer than 4096 characters',
      );
      expect(sign).not.toHaveBeenCalled();
      // The spy sees the HMAC of a header within the bound.
      await verifyWebhook(body, headers, secret, at);
      expect(sign).toHaveBeenCalledTimes(1);
    } finally {
      sign.mockRestore();
    }
  });

  it('still verifies a header of exactly the bound whose last signature matches', async () => {
    const headers = await signed();
    const valid = headers['webhook-signature'];
    const filler = `v1,${'A'.repeat(43)}= `;
    const padding = 'v1,x '.repeat(
      (MAX_SIGNATURE_HEADER_LENGTH - valid.length - filler.length) / 'v1,x '.length,
    );
    const header = `${filler}${padding}`.padEnd(MAX_SIGNATURE_HEADER_LENGTH - valid.length) + valid;
    expect(header).toHaveLength(MAX_SIGNATURE_HEADER_LENGTH);
    await expect(
      verifyWebhook(body, { ...headers, 'webhook-signature': header }, secret, at),
    ).resolves.toMatchObject({ id: 'evt_123' });
  });

  it.each([
    ['whsec_AAAA (3 bytes)', 'whsec_AAAA', 3],
    ['15 bytes of base64', `whsec_${btoa('fifteen-bytes!!')}`, 15],
    ['15 raw bytes', new Uint8Array(15).fill(7), 15],
  ])('refuses a secret under 16 bytes of key material: %s', async (_name, short, size) => {
    const headers = await signWebhook({ id: 'evt_123', timestamp: nowSeconds, body, secret });
    const error = await verifyWebhook(body, headers, short, at).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WebhookSecretError);
    expect((error as Error).message).toBe(
      `invalid_secret: the secret must hold at least 16 bytes of key material (whsec_ and 24 or more base64 characters, as shown at registration); this one holds ${size}`,
    );
    await expect(signWebhook({ id: 'evt_1', body, secret: short })).rejects.toThrow(
      WebhookSecretError,
    );
  });

  it('accepts a secret of exactly 16 bytes', async () => {
    const sixteen = `whsec_${btoa('sixteen-bytes!!!')}`;
    const headers = await signed(body, nowSeconds, sixteen);
    await expect(verifyWebhook(body, headers, sixteen, at)).resolves.toMatchObject({
      id: 'evt_123',
    });
  });
});

describe('verifyWebhook options that would switch replay protection off', () => {
  it.each([
    ['NaN (Number of an unset variable)', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a negative number', -1],
    ['a string', '300' as unknown as number],
  ])('refuses a toleranceSeconds of %s with a TypeError', async (_name, toleranceSeconds) => {
    const headers = await signed();
    await expect(verifyWebhook(body, headers, secret, { ...at, toleranceSeconds })).rejects.toThrow(
      new TypeError(
        `webhooks.verify: toleranceSeconds must be a finite number of seconds ≥ 0; got ${String(toleranceSeconds)}`,
      ),
    );
  });

  it.each([
    ['an invalid Date', () => new Date('not a date'), /got an invalid Date/],
    ['NaN', () => Number.NaN, /got NaN/],
    ['a string', () => '2026-01-15' as unknown as number, /got 2026-01-15/],
  ])('refuses a now() that returns %s with a TypeError', async (_name, now, message) => {
    const headers = await signed();
    await expect(verifyWebhook(body, headers, secret, { now })).rejects.toThrow(message);
  });

  it('still refuses an old delivery with a tolerance of 0', async () => {
    const headers = await signed(body, nowSeconds - 1);
    await expect(
      verifyWebhook(body, headers, secret, { ...at, toleranceSeconds: 0 }),
    ).rejects.toBeInstanceOf(WebhookTimestampError);
  });
});

describe('verifyWebhook cost', () => {
  it('computes one HMAC per call, however many signatures the header lists', async () => {
    const large = JSON.stringify({ ...JSON.parse(body), padding: 'x'.repeat(1 << 20) });
    const headers = await signed(large);
    // As many as fit, with the good one, within MAX_SIGNATURE_HEADER_LENGTH.
    const forged = Array.from(
      { length: 80 },
      (_, index) => `v1,${btoa(String(index).padEnd(32, 'f'))}`,
    );
    const sign = vi.spyOn(crypto.subtle, 'sign');
    const verify = vi.spyOn(crypto.subtle, 'verify');
    try {
      await expect(
        verifyWebhook(large, { ...headers, 'webhook-signature': forged.join(' ') }, secret, at),
      ).rejects.toBeInstanceOf(WebhookSignatureError);
      expect(sign).toHaveBeenCalledTimes(1);
      expect(verify).not.toHaveBeenCalled();
      sign.mockClear();
      const withGood = `${forged.join(' ')} ${headers['webhook-signature']}`;
      const event = await verifyWebhook(
        large,
        { ...headers, 'webhook-signature': withGood },
        secret,
        at,
      );
      expect(event.id).toBe('evt_123');
      expect(sign).toHaveBeenCalledTimes(1);
    } finally {
      sign.mockRestore();
      verify.mockRestore();
    }
  });
});
