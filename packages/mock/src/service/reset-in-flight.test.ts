import { describe, expect, it } from 'vitest';
import { createHarness, validCreateBody } from '../test-support/harness.js';

describe('a reset while a create is in flight', () => {
  it('leaves no payment without its idempotency record', async () => {
    const { json } = createHarness();
    await json('PUT', '/_sandbox/faults', { body: { latency_ms: 20 } });
    const headers = { 'idempotency-key': 'in-flight-1' };
    const inFlight = json('POST', '/v1/payments', { body: validCreateBody, headers });
    await new Promise((resolve) => setImmediate(resolve)); // the create is now waiting
    const reset = await json('POST', '/_sandbox/reset');
    expect(reset.status).toBe(200);
    const created = await inFlight;
    expect(created.status).toBe(201);
    const retry = await json('POST', '/v1/payments', { body: validCreateBody, headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.id).toBe(created.body.id);
    const list = await json('GET', '/v1/payments');
    expect(list.body.data).toHaveLength(1);
  });
});
