// The account services of the keys used lately, kept so that a request allocates none (a service holds no state of its own).
import { AccountService } from './account-service.js';
import type { SandboxState } from './key-scope.js';

/**
 * Services kept at most; beyond it the one made longest ago goes (it is made again if needed).
 * Each is a few small objects (about half a kilobyte with the facets a request uses), so 4,096
 * keys cost about 2 MiB: a load spread over a thousand keys never makes one per request.
 */
export const MAX_CACHED_SERVICES = 4096;

/**
 * The account service of each key used lately. A service and its facets only name the key and
 * the sandbox: every call reads the store, so a kept service never serves stale state, and a
 * reset or an eviction needs nothing here.
 *
 * @example
 * const services = new ServiceCache(sandbox);
 * services.get('sk_test_12345678') === services.get('sk_test_12345678'); // true
 */
export class ServiceCache {
  private readonly services = new Map<string, AccountService>();

  constructor(
    private readonly sandbox: SandboxState,
    private readonly capacity = MAX_CACHED_SERVICES,
  ) {}

  /** The key's service, made on first use. */
  get(apiKey: string): AccountService {
    let service = this.services.get(apiKey);
    if (service === undefined) {
      service = new AccountService(this.sandbox, apiKey);
      if (this.services.size >= this.capacity) {
        const oldest = this.services.keys().next().value;
        if (oldest !== undefined) this.services.delete(oldest);
      }
      this.services.set(apiKey, service);
    }
    return service;
  }
}
