import { describe, expect, it } from 'vitest';
import { MemoryWebhooksHandle } from '../store/memory/memory-seam.js';
import { AccountWebhooks } from '../store/memory/webhook-state.js';
import type { EndpointRecord, WebhookEndpoint } from '../store/webhook-records.js';
import { hasSubscribers, receiversOf } from './receivers.js';

function endpoint(id: string, fields: Partial<WebhookEndpoint> = {}): EndpointRecord {
  const listed = { id, url: `https://example.com/${id}`, status: 'enabled', events: null };
  return { endpoint: { ...listed, ...fields } as WebhookEndpoint, key: new Uint8Array(32) };
}

describe('hasSubscribers', () => {
  it('is false for a key with no endpoints and no enabled default one', () => {
    expect(hasSubscribers(undefined, undefined)).toBe(false);
    expect(hasSubscribers(new MemoryWebhooksHandle(new AccountWebhooks()), undefined)).toBe(false);
    expect(hasSubscribers(undefined, endpoint('we_default', { status: 'disabled' }))).toBe(false);
  });

  it('is true with an endpoint of the key, or the enabled default one', () => {
    const state = new AccountWebhooks();
    state.saveEndpoint(endpoint('we_1'));
    expect(hasSubscribers(new MemoryWebhooksHandle(state), undefined)).toBe(true);
    expect(hasSubscribers(undefined, endpoint('we_default'))).toBe(true);
  });
});

describe('receiversOf', () => {
  it('gives the enabled endpoints listening to the type, the key’s own before the default one', async () => {
    const state = new AccountWebhooks();
    state.saveEndpoint(endpoint('we_all'));
    state.saveEndpoint(endpoint('we_failed', { events: ['payment.failed'] }));
    state.saveEndpoint(endpoint('we_off', { status: 'disabled' }));
    const receivers = await receiversOf(
      new MemoryWebhooksHandle(state),
      endpoint('we_default'),
      'payment.succeeded',
    );
    expect(receivers.map(({ endpoint }) => endpoint.id)).toEqual(['we_all', 'we_default']);
  });

  it('gives none for a key with no state and no default endpoint', async () => {
    expect(await receiversOf(undefined, undefined, 'payment.succeeded')).toEqual([]);
  });
});
