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
});
