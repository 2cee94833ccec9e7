// The faults of one key: read, arm and clear them; consume fail_next and drop_after_commit; hold a request for latency_ms.
import { type Faults, MAX_HELD_REQUESTS_PER_KEY, normalizeFaults } from '../shared/faults.js';
import type { ProblemInit } from '../shared/problems.js';
import type { KeyScope } from './key-scope.js';

/**
 * The fault injection of one key (spec: getSandboxFaults, setSandboxFaults, clearSandboxFaults)
 * and what the request pipeline consumes of it.
 *
 * @example
 * service.faults.set({ fail_next: { count: 1, status: 503 } });
 * service.faults.takeFailure(); // the 503 problem, once
 */
export class FaultsFacet {
  constructor(private readonly scope: KeyScope) {}

  get(): Faults {
    return normalizeFaults(this.scope.find()?.faults ?? {});
  }

  set(faults: Faults): Faults {
    const account = this.scope.open();
    account.setFaults(normalizeFaults(faults));
    this.scope.release();
    return normalizeFaults(account.faults);
  }

  clear(): Faults {
    const account = this.scope.find();
    if (account !== undefined) {
      account.setFaults({});
      this.scope.release();
    }
    return {};
  }

  /** The latency armed for the key's /v1 requests, in ms. */
  latencyMs(): number {
    return this.scope.find()?.faults.latency_ms ?? 0;
  }

  /**
   * Takes one of the key's `MAX_HELD_REQUESTS_PER_KEY` slots for a request its latency fault
   * delays: the function that gives it back (once), or undefined when every slot is taken.
   */
  holdRequest(): (() => void) | undefined {
    const { heldRequests } = this.scope.sandbox;
    const apiKey = this.scope.apiKey;
    const held = heldRequests.get(apiKey) ?? 0;
    if (held >= MAX_HELD_REQUESTS_PER_KEY) return undefined;
    heldRequests.set(apiKey, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (heldRequests.get(apiKey) ?? 1) - 1;
      if (left > 0) heldRequests.set(apiKey, left);
      else heldRequests.delete(apiKey);
    };
  }

  /** Consumes one armed `fail_next`: the problem to answer with, if any. */
  takeFailure(): ProblemInit | undefined {
    return this.scope.find()?.consumeFailure();
  }

  /** Consumes one armed `drop_after_commit`: whether this answer must be dropped. */
  takeDrop(): boolean {
    return this.scope.find()?.consumeDrop() === true;
  }
}
