// The faults of one key: read, arm and clear them; consume fail_next and drop_after_commit; hold a request for latency_ms.
import { type Faults, MAX_HELD_REQUESTS_PER_KEY, normalizeFaults } from '../shared/faults.js';
import type { ProblemInit } from '../shared/problems.js';
import type { KeySession } from './key-session.js';

/** No `drop_after_commit` armed (shared: never changed). */
const NO_DROP: Promise<boolean> = Promise.resolve(false);
/** No `fail_next` armed (shared: never changed). */
const NO_FAILURE: Promise<ProblemInit | undefined> = Promise.resolve(undefined);

/**
 * The fault injection of one key (spec: getSandboxFaults, setSandboxFaults, clearSandboxFaults)
 * and what the request pipeline consumes of it.
 *
 * @example
 * await service.faults.set({ fail_next: { count: 1, status: 503 } });
 * await service.faults.takeFailure(); // the 503 problem, once
 */
export class FaultsFacet {
  constructor(private readonly scope: KeySession) {}

  async get(): Promise<Faults> {
    return normalizeFaults((await this.scope.find())?.faults ?? {});
  }

  async set(faults: Faults): Promise<Faults> {
    const account = await this.scope.open();
    const normalized = normalizeFaults(faults);
    await account.setFaults(normalized);
    await this.scope.release();
    return normalizeFaults(normalized);
  }

  async clear(): Promise<Faults> {
    const account = await this.scope.find();
    if (account !== undefined) {
      await account.setFaults({});
      await this.scope.release();
    }
    return {};
  }

  /**
   * The latency armed for the key's /v1 requests, in ms, as the request's session read the
   * faults with the account (no store call).
   */
  latencyMs(): number {
    return this.scope.account?.faults.latency_ms ?? 0;
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

  /** Whether a `fail_next` is armed, as the request's session read the faults (no store call). */
  failureArmed(): boolean {
    return this.scope.account?.faults.fail_next !== undefined;
  }

  /**
   * Consumes one armed `fail_next`: the problem to answer with, if any. Asks the store only when
   * one is armed as the request's session read the faults.
   */
  takeFailure(): Promise<ProblemInit | undefined> {
    const account = this.scope.account;
    if (account?.faults.fail_next === undefined) return NO_FAILURE;
    return Promise.resolve(account.consumeFailure());
  }

  /**
   * Consumes one armed `drop_after_commit`: whether this answer must be dropped. Asks the store
   * only when one is armed as the key's account was read.
   */
  takeDrop(): Promise<boolean> {
    if (!this.mayDrop()) return NO_DROP;
    return this.consumeDrop();
  }

  /**
   * Whether a `drop_after_commit` may be armed, as the request's account was read (no store
   * call): false means `takeDrop` answers false at once.
   */
  mayDrop(): boolean {
    const held = this.scope.account;
    return held === undefined || held.faults.drop_after_commit !== undefined;
  }

  private async consumeDrop(): Promise<boolean> {
    return (await (await this.scope.find())?.consumeDrop()) === true;
  }
}
