import { describe, expect, it } from 'vitest';
import { deliveryBytes, eventBytes, requestBytes, stringBytes } from './byte-sizes.js';
import type { RecordedEntry } from './request-records.js';
import type { WebhookDelivery } from './webhook-records.js';

describe('the byte sizes every store counts', () => {
  it('counts two bytes a character and nothing for an absent string', () => {
    expect(stringBytes('abc')).toBe(6);
    expect(stringBytes(null)).toBe(0);
    expect(stringBytes(undefined)).toBe(0);
  });

  it('counts an event by its id and signed body', () => {
    expect(eventBytes({ id: 'evt_1', type: 'payment.succeeded', body: '{}' })).toBe(174);
  });

  it('counts a delivery log entry by its URL, error and response body', () => {
    const entry = { url: 'https://a.b/', error: null, response_body: 'ok' } as WebhookDelivery;
    expect(deliveryBytes(entry)).toBe(400 + 24 + 0 + 4);
  });

  it('counts a recorded request by its id, path and bodies', () => {
    const entry = {
      requestId: 'req_1',
      path: '/v1/payments',
      requestBody: null,
      responseBody: '{}',
    } as RecordedEntry;
    expect(requestBytes(entry)).toBe(256 + 10 + 24 + 0 + 4);
  });
});
