import { describe, expect, it } from 'vitest';
import type { SandboxState } from './key-scope.js';
import { ServiceCache } from './service-cache.js';

// The cache only names the sandbox: no call of a service is made here.
const sandbox = {} as SandboxState;

describe('ServiceCache', () => {
  it('gives each key its own service, the same one on every request', () => {
    const services = new ServiceCache(sandbox);
    const a = services.get('sk_test_cache_a');
    expect(services.get('sk_test_cache_a')).toBe(a);
    expect(services.get('sk_test_cache_b')).not.toBe(a);
    expect(services.get('sk_test_cache_b').apiKey).toBe('sk_test_cache_b');
  });

  it('keeps at most its capacity, dropping the one made longest ago', () => {
    const services = new ServiceCache(sandbox, 2);
    const first = services.get('sk_test_cache_1');
    services.get('sk_test_cache_2');
    services.get('sk_test_cache_3');
    const again = services.get('sk_test_cache_1');
    expect(again).not.toBe(first);
    expect(again.apiKey).toBe('sk_test_cache_1');
  });

  it('keeps the services of a load spread over a thousand keys: none is made again', () => {
    const services = new ServiceCache(sandbox);
    const keys = Array.from({ length: 1000 }, (_, index) => `sk_test_cache_${index}`);
    const first = keys.map((key) => services.get(key));
    expect(keys.map((key) => services.get(key))).toEqual(first);
    expect(keys.every((key, index) => services.get(key) === first[index])).toBe(true);
  });

  it('makes a facet on first use, and the same one after', () => {
    const service = new ServiceCache(sandbox).get('sk_test_cache_facets');
    expect(service.payments).toBe(service.payments);
    expect(service.inspector).toBe(service.inspector);
    expect(service.payments).not.toBe(service.idempotency);
  });
});
