import { sandboxDocument } from '@payment-service/openapi';
import { describe, expect, it } from 'vitest';
import {
  type Faults,
  heldRequestsFull,
  MAX_HELD_REQUESTS_PER_KEY,
  normalizeFaults,
  takeDrop,
  takeFailure,
} from './faults.js';

describe('faults', () => {
  it('counts fail_next down and then stops', () => {
    const faults: Faults = { fail_next: { count: 2, status: 503 } };
    expect(takeFailure(faults)?.code).toBe('service_unavailable');
    expect(faults.fail_next?.count).toBe(1);
    expect(takeFailure(faults)?.code).toBe('service_unavailable');
    expect(faults.fail_next).toBeUndefined();
    expect(takeFailure(faults)).toBeUndefined();
  });

  it('sends Retry-After with 429, defaulting to 1 second', () => {
    expect(takeFailure({ fail_next: { count: 1, status: 429 } })?.headers).toEqual({
      'retry-after': '1',
    });
    expect(takeFailure({ fail_next: { count: 1, status: 429, retry_after: 7 } })?.headers).toEqual({
      'retry-after': '7',
    });
    expect(takeFailure({ fail_next: { count: 1, status: 500 } })?.headers).toBeUndefined();
    expect(takeFailure({ fail_next: { count: 1, status: 503 } })?.code).toBe('service_unavailable');
  });

  it('counts drop_after_commit down', () => {
    const faults: Faults = { drop_after_commit: { count: 1 } };
    expect(takeDrop(faults)).toBe(true);
    expect(takeDrop(faults)).toBe(false);
  });

  it('drops exhausted counters when normalizing', () => {
    expect(
      normalizeFaults({
        latency_ms: 0,
        fail_next: { count: 0, status: 503 },
        drop_after_commit: { count: 3 },
      }),
    ).toEqual({ drop_after_commit: { count: 3 } });
  });
});

describe('held requests', () => {
  it('the sandbox spec states the same cap as the code', () => {
    const latency = sandboxDocument.components.schemas.Faults.properties.latency_ms;
    expect(latency.description).toContain(
      `At most ${MAX_HELD_REQUESTS_PER_KEY} of the key's requests`,
    );
  });

  it('answers a request over the cap with 429 and a Retry-After of the delay, in whole seconds', () => {
    expect(heldRequestsFull(60_000)).toMatchObject({
      code: 'rate_limited',
      headers: { 'retry-after': '60' },
    });
    expect(heldRequestsFull(1).headers).toEqual({ 'retry-after': '1' });
  });
});
