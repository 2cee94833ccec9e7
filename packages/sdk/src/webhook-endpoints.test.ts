import { describe, expect, expectTypeOf, it } from 'vitest';
import { createClient } from './client.js';
import { NotFoundError } from './errors.js';
import { createFetchStub, jsonResponse, problemResponse } from './test-support/fetch-stub.js';
import type { WebhookEndpointWithSecret } from './webhook-endpoints.js';

const endpoint: WebhookEndpointWithSecret = {
  id: 'we_1',
  object: 'webhook_endpoint',
  url: 'https://shop.test/webhooks',
  events: ['payment.succeeded'],
  status: 'enabled',
  created_at: '2025-01-02T03:04:05Z',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
};

function setup(answer: Parameters<typeof createFetchStub>[0]) {
  const stub = createFetchStub(answer);
  const client = createClient({
    apiKey: 'sk_test_webhooks',
    baseUrl: 'https://sandbox.test',
    fetch: stub.fetch,
  });
  return { client, requests: stub.requests };
}

describe('webhookEndpoints', () => {
  it('create POSTs the url and filter with an Idempotency-Key and returns the secret', async () => {
    const { client, requests } = setup(() => jsonResponse(endpoint, 201));
    const created = await client.webhookEndpoints.create({
      url: endpoint.url,
      events: ['payment.succeeded'],
    });
    expectTypeOf(created.secret).toEqualTypeOf<string>();
    expect(created.secret).toMatch(/^whsec_/);
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.url.pathname).toBe('/v1/webhook_endpoints');
    expect(requests[0]?.headers.get('idempotency-key')).toBeTruthy();
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual({
      url: endpoint.url,
      events: ['payment.succeeded'],
    });
  });

  it('list GETs the endpoints', async () => {
    const { secret: _secret, ...listed } = endpoint;
    const { client, requests } = setup(() =>
      jsonResponse({ object: 'list', data: [listed], has_more: false }),
    );
    expect((await client.webhookEndpoints.list()).data).toEqual([listed]);
    expect(requests[0]?.method).toBe('GET');
  });

  it('delete sends DELETE to the endpoint and maps 404 to NotFoundError', async () => {
    const { client, requests } = setup((_request, index) =>
      index === 0
        ? jsonResponse({ id: 'we_1', object: 'webhook_endpoint', deleted: true })
        : problemResponse(404, 'not_found', 'No such webhook endpoint.'),
    );
    expect((await client.webhookEndpoints.delete('we_1')).deleted).toBe(true);
    expect(requests[0]?.method).toBe('DELETE');
    expect(requests[0]?.url.pathname).toBe('/v1/webhook_endpoints/we_1');
    await expect(client.webhookEndpoints.delete('we_2')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.webhookEndpoints.delete('')).rejects.toBeInstanceOf(TypeError);
  });
});
