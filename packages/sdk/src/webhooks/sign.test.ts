import { describe, expect, it } from 'vitest';
import { standardVector } from '../test-support/standard-webhooks-vector.js';
import { WebhookSecretError } from './errors.js';
import { signWebhook } from './sign.js';

describe('signWebhook', () => {
  it('reproduces the Standard Webhooks test vector', async () => {
    const { secret, id, timestamp, body, signature } = standardVector;
    expect(await signWebhook({ id, timestamp, body, secret })).toEqual({
      'webhook-id': id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': signature,
    });
  });

  it('accepts the secret without its prefix, as bytes, and a Date', async () => {
    const { secret, id, body, signature } = standardVector;
    const timestamp = new Date(standardVector.timestamp * 1000);
    const bare = secret.slice('whsec_'.length);
    const bytes = Uint8Array.from(atob(bare), (character) => character.charCodeAt(0));
    for (const key of [bare, bytes]) {
      const headers = await signWebhook({ id, timestamp, body, secret: key });
      expect(headers['webhook-signature']).toBe(signature);
    }
  });

  it('signs bytes like the same text', async () => {
    const { secret, id, timestamp, body, signature } = standardVector;
    const headers = await signWebhook({
      id,
      timestamp,
      body: new TextEncoder().encode(body),
      secret,
    });
    expect(headers['webhook-signature']).toBe(signature);
  });

  it('refuses a secret that is not base64, without echoing it', async () => {
    const secret = 'whsec_not*base64!';
    const error = await signWebhook({ id: 'evt_1', body: '{}', secret }).catch((caught) => caught);
    expect(error).toBeInstanceOf(WebhookSecretError);
    expect(error.code).toBe('invalid_secret');
    expect(error.message).not.toContain('not*base64');
    await expect(signWebhook({ id: 'evt_1', body: '{}', secret: 'whsec_' })).rejects.toThrow(
      WebhookSecretError,
    );
  });
});
